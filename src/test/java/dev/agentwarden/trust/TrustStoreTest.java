package dev.agentwarden.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.testing.TestTrust;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the store keeps a project's record, and what it refuses to trust. */
class TrustStoreTest {
    private static final String MANIFEST = "schema_version: 1\nconcerns: {}\nplatforms: {}\n";

    @TempDir
    Path tmp;

    @Test
    void trust_recordFileName_isSha256OfProjectRealPath_soNoCraftedPathCollides() throws Exception {
        Path project = Files.createDirectories(tmp.resolve("project/.warden")).getParent().toRealPath();
        Files.writeString(project.resolve(".warden/manifest.yaml"), MANIFEST);
        TrustStore store = new TrustStore(tmp.resolve("store"));

        store.trust(project, TestTrust.CLOCK);

        String key = Sha256.hex(project.toString().getBytes(StandardCharsets.UTF_8));
        assertThat(store.dir().resolve(key + ".json")).isRegularFile();
        assertThat(store.dir().resolve(key + ".manifest.yaml")).isRegularFile();
        assertThat(store.lookup(project.toString()).record()).isNotNull();
    }

    @Test
    void trust_hugeManifest_isRefusedWithTheLimit() throws Exception {
        Path project = Files.createDirectories(tmp.resolve("project/.warden")).getParent().toRealPath();
        try (RandomAccessFile f = new RandomAccessFile(project.resolve(".warden/manifest.yaml").toFile(), "rw")) {
            f.setLength(3L * 1024 * 1024 * 1024);
        }
        TrustStore store = new TrustStore(tmp.resolve("store"));

        assertThatThrownBy(() -> store.trust(project, TestTrust.CLOCK)).isInstanceOf(TrustException.class)
                .hasMessageContaining("file_too_large").hasMessageContaining("at most 1048576 bytes");
        assertThat(store.lookup(project.toString()).record()).isNull();
    }
}
