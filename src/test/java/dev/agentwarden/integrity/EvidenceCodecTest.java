package dev.agentwarden.integrity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.integrity.IntegrityGate.IntegrityException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Evidence lines are read through the typed JSON reader (json.Fields): a defect names the field's path. */
class EvidenceCodecTest {
    private static Map<String, Object> decisionLine() {
        return new LinkedHashMap<>(EvidenceCodec.toJson(new Recorded("s1", 1, Instant.parse("2026-12-01T10:00:00Z"),
                new IntegrityEvent.Decision(Outcome.LOADED, List.of("transport INTACT")))));
    }

    @Test
    void fromJson_whatToJsonWrote_isTheSameEvent() {
        Recorded r = EvidenceCodec.fromJson(decisionLine());

        assertThat(r.event()).isEqualTo(new IntegrityEvent.Decision(Outcome.LOADED, List.of("transport INTACT")));
        assertThat(r.seq()).isEqualTo(1);
    }

    @Test
    void fromJson_reasonNotAString_isInvalidNamingItsPath() {
        Map<String, Object> line = decisionLine();
        line.put("reasons", List.of("ok", 7L));

        assertThatThrownBy(() -> EvidenceCodec.fromJson(line)).isInstanceOfSatisfying(IntegrityException.class, e -> {
            assertThat(e.code()).isEqualTo("evidence_field_invalid");
            assertThat(e.getMessage()).isEqualTo("evidence_field_invalid: evidence.reasons[1] must be a string");
        });
    }

    @Test
    void fromJson_missingSession_isInvalidNamingIt() {
        Map<String, Object> line = decisionLine();
        line.remove("session");

        assertThatThrownBy(() -> EvidenceCodec.fromJson(line)).hasMessage("evidence_field_invalid: evidence.session is missing");
    }
}
