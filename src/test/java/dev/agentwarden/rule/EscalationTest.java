package dev.agentwarden.rule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.concern.Concern;
import dev.agentwarden.concern.ConcernContext;
import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.concern.Decision;
import dev.agentwarden.concern.Posture;
import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.host.claude.ClaudeAdapter;
import dev.agentwarden.json.Json;
import dev.agentwarden.manifest.ManifestCompiler;
import dev.agentwarden.manifest.ManifestProblem;
import dev.agentwarden.testing.MutableClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** escalate: after N refusals in a session within a window, the rule's next refusal is its then step. */
class EscalationTest {
    private static final ConcernSpec SPEC = new ConcernSpec("no-rm", "builtin:rule", List.of(), false,
            Posture.BLOCKING, Set.of(), 10_000, false, 0, Map.of());

    @TempDir
    Path project;

    private final MutableClock clock = MutableClock.at("2026-12-07T14:00:00Z");

    private static Concern rule(String then) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("when", "\"rm\" in commands");
        settings.put("action", "deny");
        settings.put("escalate", Map.of("after", 3, "within", "10m", "then", then));
        return Rules.create(Rules.parse(settings));
    }

    private Decision run(Concern concern, String session) throws Exception {
        String payload = "{\"tool_name\":\"Bash\",\"session_id\":\"" + session + "\",\"tool_input\":{\"command\":\"rm -rf x\"}}";
        HookEvent e = new ClaudeAdapter("claude").normalize("PreToolUse", EventName.PRE_TOOL_USE, Json.parseObject(payload),
                payload.getBytes(StandardCharsets.UTF_8), project.toString());
        return concern.evaluate(new ConcernContext(e, SPEC, clock, project.resolve(".warden"), Map.of())).decision();
    }

    @Test
    void threeRefusals_thenAsk() throws Exception {
        Concern c = rule("ask");
        assertThat(List.of(run(c, "s1"), run(c, "s1"), run(c, "s1"), run(c, "s1")))
                .containsExactly(Decision.BLOCK, Decision.BLOCK, Decision.BLOCK, Decision.ASK);
        assertThat(project.resolve(".warden/state/strikes").toFile().list()).singleElement()
                .satisfies(n -> assertThat(n).matches("[0-9a-f]{16}\\.json"));
    }

    @Test
    void threeRefusals_thenHalt() throws Exception {
        Concern c = rule("halt");
        run(c, "s1");
        run(c, "s1");
        run(c, "s1");
        assertThat(run(c, "s1")).isEqualTo(Decision.HALT);
    }

    @Test
    void aNewSession_startsClean() throws Exception {
        Concern c = rule("halt");
        for (int i = 0; i < 4; i++) {
            run(c, "s1");
        }
        assertThat(run(c, "s2")).isEqualTo(Decision.BLOCK);
    }

    @Test
    void refusalsOlderThanTheWindow_areForgotten() throws Exception {
        Concern c = rule("halt");
        run(c, "s1");
        run(c, "s1");
        run(c, "s1");
        clock.advance(Duration.ofMinutes(10));
        assertThat(run(c, "s1")).isEqualTo(Decision.BLOCK);
        clock.advance(Duration.ofMinutes(1));
        run(c, "s1");
        run(c, "s1");
        assertThat(run(c, "s1")).isEqualTo(Decision.HALT);
    }

    @Test
    void sessionStrikes_isReadByACondition() throws Exception {
        Concern escalating = rule("halt");
        run(escalating, "s1");
        run(escalating, "s1");
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("when", "session.strikes >= 2");
        settings.put("action", "ask");
        Concern watcher = Rules.create(Rules.parse(settings));
        assertThat(run(watcher, "s1")).isEqualTo(Decision.ASK);
        assertThat(run(watcher, "s2")).isEqualTo(Decision.ALLOW);
    }

    @Test
    void aStrikesFileNotPrivate_isAnError_notZero() throws Exception {
        Concern c = rule("halt");
        run(c, "s1");
        Path file = Strikes.file(project.resolve(".warden"), "s1");
        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-rw-rw-"));
        assertThat(run(c, "s1")).isEqualTo(Decision.ERROR);
    }

    private static List<ManifestProblem> errors(String escalate) throws Exception {
        String yaml = "schema_version: 1\nconcerns:\n  r:\n    script: builtin:rule\n    when: 'true'\n    action: deny\n"
                + "    escalate: " + escalate + "\nplatforms:\n  claude:\n    pre_tool_use: [r]\n";
        return ManifestCompiler.compile("policy.yaml", yaml, "0".repeat(64)).problems().stream()
                .filter(ManifestProblem::isError).toList();
    }

    @Test
    void badEscalateValues_areLintErrorsAtTheirLine() throws Exception {
        assertThat(errors("{after: 0, within: 10m, then: ask}")).singleElement()
                .satisfies(e -> assertThat(e.toString()).startsWith("policy.yaml:7: error: concerns.r.escalate").contains("after"));
        assertThat(errors("{after: 3, within: soon, then: ask}")).singleElement()
                .satisfies(e -> assertThat(e.toString()).startsWith("policy.yaml:7: error: concerns.r.escalate").contains("within"));
        assertThat(errors("{after: 3, within: 10m, then: deny}")).singleElement()
                .satisfies(e -> assertThat(e.toString()).startsWith("policy.yaml:7: error: concerns.r.escalate").contains("then"));
        assertThat(errors("{after: 3, within: 10m, then: halt}")).isEmpty();
    }
}
