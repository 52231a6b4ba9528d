package dev.agentwarden;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java programs under {@code bench/} ({@code bench/run-all.sh} runs them as source files against
 * the jar) compile against the main classes as they are now, so a change of a main API cannot leave a
 * benchmark that only fails when someone measures.
 */
class BenchSourcesCompileTest {
    @Test
    void benchPrograms_compileAgainstTheMainClasses(@TempDir Path out) throws Exception {
        Path classes = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path bench = Path.of(System.getProperty("warden.home", ".")).resolve("bench");
        List<String> sources = new ArrayList<>();
        try (Stream<Path> files = Files.list(bench)) {
            files.filter(p -> p.toString().endsWith(".java")).sorted().forEach(p -> sources.add(p.toString()));
        }
        assertThat(sources).as("bench/*.java").isNotEmpty();
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        for (String source : sources) {
            // one at a time: each is run on its own (java -cp target/warden.jar bench/X.java)
            int rc = javac.run(null, null, errors, "-proc:none", "-d", out.toString(), "-cp", classes.toString(),
                    source);
            assertThat(rc).as("javac %s:%n%s", source, errors.toString(StandardCharsets.UTF_8)).isZero();
        }
    }
}
