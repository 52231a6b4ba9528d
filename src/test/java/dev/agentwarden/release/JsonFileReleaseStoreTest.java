package dev.agentwarden.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.integrity.fixture.SquadArtifacts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The unsigned release manifest, read strictly; a defect names its entry and key. */
class JsonFileReleaseStoreTest {
    static final ReleaseKey KEY = new ReleaseKey("0.13.1", "copilot-cli", "1.0.3");
    static final String SHA = "a".repeat(64);
    static final String ENTRY = "{\"agent_id\":\"squad\",\"agent_version\":\"0.13.1\",\"client_id\":\"copilot-cli\","
            + "\"client_version\":\"1.0.3\",\"sha256\":\"" + SHA + "\"";

    @TempDir
    Path dir;

    @Test
    void open_readsEntriesAndLooksThemUpByKey() throws IOException {
        Path f = Files.writeString(dir.resolve("r.json"), "[" + ENTRY + ",\"length\":10,\"normalization\":\"squad-template\","
                + "\"normalized_sha256\":\"" + "b".repeat(64) + "\"}]");
        JsonFileReleaseStore store = JsonFileReleaseStore.open(f);
        ReleaseLookup found = store.lookup(KEY);
        assertThat(found.status()).isEqualTo(ReleaseLookup.Status.FOUND);
        assertThat(found.entry()).isEqualTo(new ReleaseEntry("squad", SHA, 10, "b".repeat(64), "squad-template"));
        ReleaseLookup missing = store.lookup(new ReleaseKey("0.13.2", "copilot-cli", "1.0.3"));
        assertThat(missing.status()).isEqualTo(ReleaseLookup.Status.NOT_REGISTERED);
        assertThat(missing.reason()).startsWith("release_key_not_registered");
        assertThat(store.ref()).containsEntry("path", f.toAbsolutePath().toString()).containsKey("sha256");
    }

    @Test
    void renderAndRegister_roundTrip() {
        byte[] bytes = SquadArtifacts.coordinator("0.13.1", SquadArtifacts.team("Lead", "Tester"), 3_000);
        String text = JsonFileReleaseStore.render(List.of(JsonFileReleaseStore.register("squad", KEY, bytes, "squad-template")));
        ReleaseEntry e = JsonFileReleaseStore.fromBytes("m", text.getBytes(StandardCharsets.UTF_8)).lookup(KEY).entry();
        assertThat(e.sha256()).isEqualTo(Sha256.hex(bytes));
        assertThat(e.length()).isEqualTo(bytes.length);
        assertThat(e.normalization()).isEqualTo("squad-template");
    }

    static Stream<Arguments> defects() {
        return Stream.of(
                Arguments.of("{}", "release_manifest_invalid", "JSON array"),
                Arguments.of("[1]", "release_manifest_invalid", "[0] is not an object"),
                Arguments.of("[" + ENTRY.replace(SHA, "A".repeat(64)) + "}]", "release_manifest_invalid", "[0].sha256"),
                Arguments.of("[" + ENTRY + ",\"extra\":1}]", "release_manifest_invalid", "[0].extra: unknown key"),
                Arguments.of("[" + ENTRY + ",\"length\":-1}]", "release_manifest_invalid", "[0].length"),
                Arguments.of("[" + ENTRY + ",\"normalization\":\"mine\",\"normalized_sha256\":\"" + SHA + "\"}]",
                        "release_manifest_invalid", "unknown profile 'mine'"),
                Arguments.of("[" + ENTRY + ",\"normalization\":\"squad-template\"}]", "release_manifest_invalid",
                        "[0].normalized_sha256"),
                Arguments.of("[" + ENTRY.replace("\"agent_version\":\"0.13.1\",", "") + "}]", "release_manifest_invalid",
                        "[0].agent_version"),
                Arguments.of("[" + ENTRY + ",\"sha256\":\"" + SHA + "\"}]", "release_manifest_invalid", "not I-JSON"),
                Arguments.of("[" + ENTRY + "}," + ENTRY + "}]", "release_manifest_duplicate_key", "[1]: a second entry"),
                Arguments.of("[", "release_manifest_invalid", "not I-JSON"));
    }

    @ParameterizedTest(name = "{1}: {2}")
    @MethodSource("defects")
    void open_defectiveManifest_failsNamingEntryAndKey(String text, String code, String detail) throws IOException {
        Path f = Files.writeString(dir.resolve("r.json"), text);
        assertThatThrownBy(() -> JsonFileReleaseStore.open(f))
                .isInstanceOfSatisfying(ReleaseStoreException.class, e -> {
                    assertThat(e.code()).isEqualTo(code);
                    assertThat(e.getMessage()).contains(detail);
                });
    }

    @Test
    void open_missingOrTooLarge_isRefused() throws IOException {
        assertThatThrownBy(() -> JsonFileReleaseStore.open(dir.resolve("none.json")))
                .isInstanceOfSatisfying(ReleaseStoreException.class, e -> assertThat(e.code()).isEqualTo("release_manifest_unreadable"));
        Path big = Files.write(dir.resolve("big.json"), new byte[JsonFileReleaseStore.MAX_BYTES + 1]);
        assertThatThrownBy(() -> JsonFileReleaseStore.open(big))
                .isInstanceOfSatisfying(ReleaseStoreException.class, e -> assertThat(e.code()).isEqualTo("release_manifest_too_large"));
    }
}
