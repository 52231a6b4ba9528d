package dev.agentwarden.integrity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.release.ReleaseStore;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Issue 13.5: the integrity package's public surface is the gate. Its top-level types are read from
 * the compiled classes, so a type added later is seen without being named here.
 */
class IntegrityPublicSurfaceTest {
    /** The gate's six public types; every other top-level type of the package is package-private. */
    private static final List<String> GATE = List.of("AgentSelection", "EvidenceReplay", "GateSession", "GateVerdict",
            "IntegrityGate", "Outcome");

    @Test
    void integrityPackage_publicTopLevelTypes_areExactlyTheGate() throws Exception {
        List<String> publicTypes = new ArrayList<>();
        for (Class<?> c : topLevelTypes()) {
            if (Modifier.isPublic(c.getModifiers())) {
                publicTypes.add(c.getSimpleName());
            }
        }
        assertThat(publicTypes).as("public types of dev.agentwarden.integrity").containsExactlyInAnyOrderElementsOf(GATE);
    }

    @Test
    void evaluatorAndRecorder_nothingOutsideNeedsThem_areNotPublic() {
        assertThat(Modifier.isPublic(Evaluator.class.getModifiers())).as("Evaluator public").isFalse();
        assertThat(Modifier.isPublic(Recorder.class.getModifiers())).as("Recorder public").isFalse();
    }

    /** The unsigned store and the store interface sit with {@code release}, not in the gate's package. */
    @Test
    void integrityPackage_definesNoReleaseStore() throws Exception {
        List<String> stores = new ArrayList<>();
        for (Class<?> c : topLevelTypes()) {
            if (ReleaseStore.class.isAssignableFrom(c)) {
                stores.add(c.getName());
            }
        }
        assertThat(stores).as("release stores in the gate's package").isEmpty();
    }

    /** The package's top-level classes as compiled (no nested class, no subpackage). */
    private static List<Class<?>> topLevelTypes() throws IOException, URISyntaxException, ClassNotFoundException {
        Path dir = Path.of(IntegrityGate.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("dev/agentwarden/integrity");
        TreeSet<String> names = new TreeSet<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".class") && !n.contains("$") && !n.equals("package-info.class"))
                    .forEach(n -> names.add(n.substring(0, n.length() - ".class".length())));
        }
        assertThat(names).as("classes found under " + dir).contains("IntegrityGate");
        List<Class<?>> out = new ArrayList<>();
        for (String n : names) {
            out.add(Class.forName("dev.agentwarden.integrity." + n, false, IntegrityPublicSurfaceTest.class.getClassLoader()));
        }
        return out;
    }
}
