package dev.agentwarden.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class OpenRecordTest {
    static final String REF = "0123456789ab";
    static final String GOOD = "{\"v\":1,\"ref\":\"0123456789ab\",\"session_id\":\"s\",\"agent_type\":\"t\",\"parent_ref\":null,"
            + "\"depth\":1,\"depth_basis\":\"assumed-root\",\"started_at\":\"2026-05-04T10:00:00Z\",\"started_ms\":1777888800000}";

    @TempDir
    Path project;

    @Test
    void parse_roundTripsWhatIsWritten() throws LedgerException {
        OpenRecord r = new OpenRecord(REF, "s", "t", "ba9876543210", 3, "observed", 1_777_888_800_000L);

        assertThat(OpenRecord.parse(REF, r.toBytes())).isEqualTo(r);
    }

    static Stream<Arguments> untrusted() {
        return Stream.of(
                Arguments.of("ref differs from the file name", GOOD.replace("\"ref\":\"0123456789ab\"", "\"ref\":\"ffffffffffff\""),
                        "open_record_ref_mismatch"),
                Arguments.of("not JSON", "{\"v\":1,", "open_record_not_json"),
                Arguments.of("an array", "[1,2]", "open_record_not_json"),
                Arguments.of("unknown version", GOOD.replace("\"v\":1", "\"v\":2"), "open_record_version"),
                Arguments.of("depth is text", GOOD.replace("\"depth\":1", "\"depth\":\"1\""), "open_record_field_type"),
                Arguments.of("depth is zero", GOOD.replace("\"depth\":1", "\"depth\":0"), "open_record_field_type"),
                Arguments.of("unknown depth basis", GOOD.replace("assumed-root", "guessed"), "open_record_field_type"),
                Arguments.of("started_ms negative", GOOD.replace("1777888800000", "-5"), "open_record_field_type"),
                Arguments.of("started_ms fractional", GOOD.replace("1777888800000", "1.5"), "open_record_field_type"),
                Arguments.of("session_id is a number", GOOD.replace("\"session_id\":\"s\"", "\"session_id\":7"),
                        "open_record_field_type"),
                Arguments.of("parent_ref is not a ref", GOOD.replace("\"parent_ref\":null", "\"parent_ref\":\"raw-agent-id\""),
                        "open_record_field_type"),
                Arguments.of("duplicate key", GOOD.replace("\"depth\":1", "\"depth\":1,\"depth\":2"), "open_record_not_json"),
                Arguments.of("over the size cap", GOOD.replace("\"t\"", "\"" + "t".repeat(5000) + "\""), "open_record_too_large"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("untrusted")
    void parse_untrustedRecord_isRejectedWithCode(String name, String text, String code) {
        assertThatThrownBy(() -> OpenRecord.parse(REF, text.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(LedgerException.class).hasMessageStartingWith(code + ":")
                .extracting(e -> ((LedgerException) e).code()).isEqualTo(code);
    }

    /** The record is read through the typed JSON reader (json.Fields): a wrong-typed field is named with its path. */
    @Test
    void parse_wrongTypedField_namesItThroughTheTypedReader() {
        String text = GOOD.replace("\"session_id\":\"s\"", "\"session_id\":7");

        assertThatThrownBy(() -> OpenRecord.parse(REF, text.getBytes(StandardCharsets.UTF_8)))
                .hasMessage("open_record_field_type: open record.session_id must be a string");
    }

    @Test
    void openSet_excludesAndReportsUntrustedRecords() throws IOException {
        LedgerPaths paths = LedgerPaths.forRoot(project.toString());
        Files.createDirectories(paths.openDir());
        Files.writeString(paths.openDir().resolve(REF + ".json"), GOOD);
        Files.writeString(paths.openDir().resolve("ffffffffffff.json"), GOOD);
        Files.writeString(paths.openDir().resolve("notes.txt"), "ignored: not a record name");
        Files.writeString(paths.openDir().resolve(".0123456789ab.json.123.tmp"), "{");

        OpenSet set = OpenSet.read(paths, 1_777_888_800_000L + 1000, LedgerSettings.DEFAULT_TTL_MS);

        assertThat(set.live()).extracting(OpenRecord::ref).containsExactly(REF);
        assertThat(set.invalid()).extracting(LedgerProblem::code).containsExactly("open_record_ref_mismatch");
        assertThat(set.count()).isEqualTo(1);
    }

    @Test
    void openSet_splitsLiveAndStaleAtTheTtl() throws IOException {
        LedgerPaths paths = LedgerPaths.forRoot(project.toString());
        Files.createDirectories(paths.openDir());
        Files.writeString(paths.openDir().resolve(REF + ".json"), GOOD);
        long started = 1_777_888_800_000L;

        assertThat(OpenSet.read(paths, started + 1000, 1000).live()).hasSize(1);
        assertThat(OpenSet.read(paths, started + 1001, 1000).stale()).hasSize(1);
    }
}
