package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.WardenProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;

/** The per-case dispatch JVMs of the golden ITs start from a class-data archive, as bin/warden's do. */
class ClassDataArchiveIT {
    @Test
    void goldenDispatchJvm_loadedEveryClassFromTheJar_readsWardensClassesFromTheArchive() throws Exception {
        List<String> flags = ClassDataArchive.flags();
        assertThat(flags).as("the archive was trained (see stderr)").hasSize(1);
        GoldenCorpus.Case c = GoldenCorpus.cases().map(Named::getPayload).findFirst().orElseThrow();
        Path log = Files.createTempFile("warden-class-load", ".log");
        try (GoldenCorpus.Project project = GoldenCorpus.Project.open()) {
            List<String> jvmArgs = new ArrayList<>(flags);
            jvmArgs.add("-Xlog:class+load=info:file=" + log);
            WardenProcess.Result r = WardenProcess.run(jvmArgs, c.argv(), project.env(c), c.stdin(), project.dir);

            GoldenCorpus.assertMatches(c, new GoldenCorpus.Outcome(r.exitCode(), r.stdout(), r.stderr()));
            assertThat(Files.readAllLines(log, StandardCharsets.UTF_8))
                    .as("DispatchMain's class-load line").filteredOn(l -> l.contains(" dev.agentwarden.dispatch.DispatchMain "))
                    .singleElement().asString().contains("source: shared objects file");
        } finally {
            Files.deleteIfExists(log);
            // The JVM's logging moves the (empty) file it found aside as <name>.0 before it writes.
            Files.deleteIfExists(log.resolveSibling(log.getFileName() + ".0"));
        }
    }
}
