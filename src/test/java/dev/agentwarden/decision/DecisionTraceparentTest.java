package dev.agentwarden.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The optional {@code traceparent} of a decision line: written only from a well-formed TRACEPARENT in the hook's environment. */
class DecisionTraceparentTest {
    private static final String TP = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @TempDir
    Path tmp;

    @Test
    void hookEnvWithTraceparent_lineCarriesIt_withoutItTheLineHasNoKey() throws Exception {
        DecisionProject p = new DecisionProject(tmp, DecisionProject.MANIFEST);
        p.dispatch("PreToolUse", DecisionLogTest.bash("s", "ls"));
        p.env.put("TRACEPARENT", TP);
        p.dispatch("PreToolUse", DecisionLogTest.bash("s", "ls"));
        p.env.put("TRACEPARENT", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01 and-more-text");
        p.dispatch("PreToolUse", DecisionLogTest.bash("s", "ls"));

        List<String> lines = p.lines();
        assertThat(Json.parseObject(lines.get(0))).doesNotContainKey("traceparent");
        Map<String, Object> traced = Json.parseObject(lines.get(1));
        assertThat(traced.get("traceparent")).isEqualTo(TP);
        assertThat(lines.get(1)).contains(",\"traceparent\":\"" + TP + "\",\"elapsed_us\":");
        assertThat(Json.parseObject(lines.get(2))).as("not a traceparent: nothing of it written")
                .doesNotContainKey("traceparent");
        assertThat(lines.get(2)).doesNotContain("and-more-text");
    }

    @Test
    void traceparent_acceptsOnlyTheW3cVersion00Form() {
        assertThat(DecisionLine.traceparent(TP)).isEqualTo(TP);
        assertThat(DecisionLine.traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00")).isNotNull();
        assertThat(DecisionLine.traceparent(null)).isNull();
        assertThat(DecisionLine.traceparent("")).isNull();
        assertThat(DecisionLine.traceparent(TP.toUpperCase())).as("upper-case hex").isNull();
        assertThat(DecisionLine.traceparent("01" + TP.substring(2))).as("another version").isNull();
        assertThat(DecisionLine.traceparent("00-00000000000000000000000000000000-00f067aa0ba902b7-01")).as("zero trace").isNull();
        assertThat(DecisionLine.traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01")).as("zero span").isNull();
        assertThat(DecisionLine.traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7-01")).isNull();
        assertThat(DecisionLine.traceparent("00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01")).isNull();
        assertThat(DecisionLine.traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0\"")).isNull();
    }
}
