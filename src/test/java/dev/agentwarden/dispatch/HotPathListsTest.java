package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link HotPathLists}: a package-info's hot-path list that disagrees with what loaded is reported, and rewriting fixes it. */
class HotPathListsTest {
    @TempDir
    Path src;

    @Test
    void mismatches_listMissingWrongOrStale_areEachReported_andWriteFixesThem() throws Exception {
        Path a = Files.createDirectories(src.resolve("dev/x/a"));
        Path b = Files.createDirectories(src.resolve("dev/x/b"));
        Path c = Files.createDirectories(src.resolve("dev/x/c"));
        Files.writeString(a.resolve("package-info.java"), "/**\n * A.\n *\n * " + HotPathLists.MARKER + "One, Two.\n */\npackage dev.x.a;\n");
        Files.writeString(b.resolve("package-info.java"), "/**\n * B.\n */\npackage dev.x.b;\n");
        Files.writeString(c.resolve("package-info.java"), "/**\n * C.\n *\n * " + HotPathLists.MARKER + "Old.\n */\npackage dev.x.c;\n");
        Map<String, Set<String>> hot = Map.of("dev.x.a", new TreeSet<>(Set.of("One", "Three")), "dev.x.b", Set.of("Bee"));

        assertThat(HotPathLists.mismatches(src, hot)).hasSize(3)
                .anySatisfy(m -> assertThat(m).startsWith("dev.x.a: lists [One, Two], loaded [One, Three]"))
                .anySatisfy(m -> assertThat(m).startsWith("dev.x.b: no hot-path list"))
                .anySatisfy(m -> assertThat(m).startsWith("dev.x.c: lists hot classes, but"));

        HotPathLists.write(src, hot);

        assertThat(HotPathLists.mismatches(src, hot)).isEmpty();
        assertThat(Files.readString(a.resolve("package-info.java"))).startsWith("/**\n * A.\n *\n").endsWith("package dev.x.a;\n");
        assertThat(Files.readString(c.resolve("package-info.java"))).isEqualTo("/**\n * C.\n */\npackage dev.x.c;\n");
    }
}
