package dev.agentwarden.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.FieldScanner;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonLimits;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code log --summary} counts a Warden line from its scanned fields, and leaves any other to the map path. */
class DecisionSummaryTest {
    private static final String LINE = "{\"v\":1,\"ts\":\"2026-06-01T00:00:00.000Z\",\"host\":\"claude\",\"event\":\"pre_tool_use\","
            + "\"native_event\":\"PreToolUse\",\"session_id\":\"s\",\"concerns\":[{\"name\":\"sudo-shadow\",\"posture\":\"shadow\","
            + "\"outcome\":\"block\",\"would_block\":true},{\"name\":\"a\",\"posture\":\"blocking\",\"outcome\":\"allow\"}],"
            + "\"verdict\":\"allow\"}";

    @Test
    void acceptScanned_wardenLine_countsItWithoutAMapAsTheMapPathDoes() {
        DecisionSummary scanned = new DecisionSummary(DecisionFilter.ALL);
        DecisionSummary mapped = new DecisionSummary(DecisionFilter.ALL);

        assertThat(scan(scanned, LINE)).isTrue();
        mapped.accept(map(LINE));

        assertThat(Json.write(scanned.toJson())).isEqualTo(Json.write(mapped.toJson()));
        assertThat(scanned.decisions()).isEqualTo(1);
    }

    @Test
    void acceptScanned_hostNotAString_leavesTheLineToTheMapPathUncounted() {
        DecisionSummary summary = new DecisionSummary(DecisionFilter.ALL);

        assertThat(scan(summary, LINE.replace("\"host\":\"claude\"", "\"host\":5"))).isFalse();
        assertThat(summary.decisions()).isZero();
    }

    @Test
    void acceptScanned_withAFilter_leavesTheLineToTheMapPath() {
        DecisionSummary summary = new DecisionSummary(new DecisionFilter(null, null, null, "block", null, false));

        assertThat(scan(summary, LINE)).isFalse();
        assertThat(summary.decisions()).isZero();
    }

    private static boolean scan(DecisionSummary summary, String line) {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        FieldScanner top = new FieldScanner(DecisionReader.SUMMARY_KEYS, 256, false);
        FieldScanner concern = new FieldScanner(DecisionReader.CONCERN_KEYS, 256, false);
        assertThat(top.scan(b, 0, b.length)).isTrue();
        return summary.acceptScanned(top, concern);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(String line) {
        return (Map<String, Object>) Json.parse(line, JsonLimits.LENIENT);
    }
}
