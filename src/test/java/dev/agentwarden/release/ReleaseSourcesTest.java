package dev.agentwarden.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The release sources a gate consults open the stores of {@code release} and refuse a bad one with the store's code. */
class ReleaseSourcesTest {
    @TempDir
    Path dir;

    @Test
    void unsigned_defectiveManifest_isRefusedWithTheStoresCode() throws IOException {
        Path f = Files.writeString(dir.resolve("r.json"), "{}");
        assertThatThrownBy(() -> ReleaseSources.unsigned(f))
                .isInstanceOfSatisfying(ReleaseStoreException.class, e -> {
                    assertThat(e.code()).isEqualTo("release_manifest_invalid");
                    assertThat(e.getMessage()).isEqualTo("release_manifest_invalid: " + f + ": expected a JSON array of entries");
                });
        assertThatThrownBy(() -> ReleaseSources.open(dir.resolve("none.json"), null, null, java.time.Clock.systemUTC()))
                .isInstanceOfSatisfying(ReleaseStoreException.class, e -> assertThat(e.code()).isEqualTo("release_manifest_unreadable"));
    }

    @Test
    void reopen_recordedManifestGone_isRefusedAsUnreadable() {
        assertThatThrownBy(() -> ReleaseSources.reopen(java.util.Map.of("path", dir.resolve("gone.json").toString()),
                java.time.Instant.EPOCH))
                .isInstanceOfSatisfying(ReleaseStoreException.class, e -> assertThat(e.code()).isEqualTo("release_manifest_unreadable"));
    }
}
