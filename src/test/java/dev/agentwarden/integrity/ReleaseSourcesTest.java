package dev.agentwarden.integrity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.release.ReleaseStore;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gate opens release stores that live in {@code release}, and rejects a bad one in its own terms. */
class ReleaseSourcesTest {
    @TempDir
    Path dir;

    @Test
    void unsigned_defectiveManifest_isAnIntegrityRejectionWithTheStoresCode() throws IOException {
        Path f = Files.writeString(dir.resolve("r.json"), "{}");
        assertThatThrownBy(() -> ReleaseSources.unsigned(f))
                .isInstanceOfSatisfying(IntegrityException.class, e -> {
                    assertThat(e.code()).isEqualTo("release_manifest_invalid");
                    assertThat(e.getMessage()).isEqualTo("release_manifest_invalid: " + f + ": expected a JSON array of entries");
                });
        assertThatThrownBy(() -> ReleaseSources.open(dir.resolve("none.json"), null, null, java.time.Clock.systemUTC()))
                .isInstanceOfSatisfying(IntegrityException.class, e -> assertThat(e.code()).isEqualTo("release_manifest_unreadable"));
    }

    /** Issue 13.5: the unsigned store and the store interface sit with {@code release}, not in the gate's package. */
    @Test
    void integrityPackage_definesNoReleaseStore() throws IOException, URISyntaxException, ClassNotFoundException {
        Path classes = Path.of(IntegrityGate.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("dev/agentwarden/integrity");
        List<String> stores = new ArrayList<>();
        try (Stream<Path> files = Files.list(classes)) {
            for (Path p : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))::iterator) {
                String name = "dev.agentwarden.integrity." + p.getFileName().toString().replace(".class", "");
                if (ReleaseStore.class.isAssignableFrom(Class.forName(name, false, getClass().getClassLoader()))) {
                    stores.add(name);
                }
            }
        }
        assertThat(stores).as("release stores in the gate's package").isEmpty();
    }
}
