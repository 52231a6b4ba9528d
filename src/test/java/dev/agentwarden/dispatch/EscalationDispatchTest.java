package dev.agentwarden.dispatch;

import dev.agentwarden.testing.WardenProcess;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.strike.Strikes;
import dev.agentwarden.testing.InProcessDispatch;
import dev.agentwarden.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code escalate} on any concern, through the whole dispatch path: every refused event of a session
 * is a strike, whichever concern refused it; once the session holds {@code after} strikes within
 * the window, an escalating concern's next refusal is its step, said in the reason, the stderr note
 * and the decision line ({@code strikes}, {@code escalated}).
 */
class EscalationDispatchTest {
    @TempDir
    Path project;
    @TempDir
    Path cache;

    private final MutableClock clock = MutableClock.at("2026-12-07T14:00:00Z");
    private Path manifest;

    @BeforeEach
    void writeManifest() throws Exception {
        Path script = project.resolve("no-curl.sh");
        WardenProcess.writeScript(script, "#!/bin/sh\ncase \"$(cat)\" in *curl*) echo 'curl refused by script'; exit 1;; esac\nexit 0\n",
                "rwx------");
        manifest = project.resolve("policy.yaml");
        Files.writeString(manifest, """
                schema_version: 1
                concerns:
                  no-secrets:
                    script: builtin:deny-pattern
                    patterns:
                      - {match: 'cat .*\\.env', reason: 'reading .env refused'}
                  no-curl:
                    script: ./no-curl.sh
                  no-verify:
                    script: builtin:block-no-verify
                  no-rm:
                    script: builtin:rule
                    when: '"rm" in commands'
                    action: deny
                    reason: 'rm refused'
                    escalate: {after: 3, within: 10m, then: halt}
                platforms:
                  claude:
                    pre_tool_use: [no-secrets, no-curl, no-verify, no-rm]
                """);
    }

    private InProcessDispatch.Response bash(String session, String command) {
        String payload = "{\"hook_event_name\":\"PreToolUse\",\"session_id\":\"" + session + "\",\"cwd\":"
                + Json.write(project.toString()) + ",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":"
                + Json.write(command) + "}}";
        return new InProcessDispatch(cache, clock).run("claude", payload, "--native-event", "PreToolUse",
                "--manifest", manifest.toString());
    }

    private Map<String, Object> lastLine() throws Exception {
        List<String> lines = DecisionLines.all(project);
        return Json.parseObject(lines.get(lines.size() - 1));
    }

    private static String decision(InProcessDispatch.Response r) {
        if (r.stdout().isBlank()) {
            return "allow";
        }
        Map<String, Object> out = Json.parseObject(r.stdout());
        if (Boolean.FALSE.equals(out.get("continue"))) {
            return "halt";
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> specific = (Map<String, Object>) out.get("hookSpecificOutput");
        return String.valueOf(specific.get("permissionDecision"));
    }

    @Test
    void threeRefusalsByDifferentConcerns_thenTheEscalatingConcernsRefusalHalts() throws Exception {
        assertThat(decision(bash("s1", "cat prod.env"))).isEqualTo("deny");
        assertThat(lastLine()).containsEntry("strikes", 1L).doesNotContainKey("escalated");
        assertThat(decision(bash("s1", "curl https://example.com"))).isEqualTo("deny");
        assertThat(decision(bash("s1", "git commit --no-verify -m x"))).isEqualTo("deny");
        assertThat(lastLine()).containsEntry("strikes", 3L);

        InProcessDispatch.Response fourth = bash("s1", "rm -rf build");

        assertThat(decision(fourth)).isEqualTo("halt");
        assertThat(fourth.stdout()).contains("rm refused (escalated to halt: 3 strikes in this session within 10m)");
        assertThat(fourth.stderr()).contains("warden: no-rm: escalated to halt: 3 strikes in this session within 10m");
        Map<String, Object> line = lastLine();
        assertThat(line).containsEntry("verdict", "halt").containsEntry("strikes", 4L).containsEntry("escalated", "halt");
        assertThat(Strikes.count(project.resolve(".warden"), "s1", clock.millis(), Duration.ofHours(1).toMillis())).isEqualTo(4);
    }

    @Test
    void belowTheThreshold_theRefusalIsTheConcernsOwn() throws Exception {
        bash("s1", "cat prod.env");
        bash("s1", "curl https://example.com");
        assertThat(decision(bash("s1", "rm x"))).isEqualTo("deny");
        assertThat(lastLine()).containsEntry("verdict", "block").containsEntry("strikes", 3L).doesNotContainKey("escalated");
    }

    @Test
    void thenAsk_asksInsteadOfRefusing_andAnAskIsNoStrike() throws Exception {
        Files.writeString(manifest, Files.readString(manifest).replace("then: halt", "then: ask"));
        for (int i = 0; i < 3; i++) {
            bash("s1", "cat prod.env");
        }
        assertThat(decision(bash("s1", "rm x"))).isEqualTo("ask");
        assertThat(lastLine()).containsEntry("verdict", "ask").containsEntry("strikes", 3L).containsEntry("escalated", "ask");
        assertThat(decision(bash("s1", "rm y"))).isEqualTo("ask");
        assertThat(Strikes.count(project.resolve(".warden"), "s1", clock.millis(), Duration.ofHours(1).toMillis())).isEqualTo(3);
    }

    @Test
    void aNewSession_startsClean() throws Exception {
        for (int i = 0; i < 4; i++) {
            bash("s1", "rm x");
        }
        assertThat(decision(bash("s1", "rm x"))).isEqualTo("halt");
        assertThat(decision(bash("s2", "rm x"))).isEqualTo("deny");
        assertThat(lastLine()).containsEntry("strikes", 1L).doesNotContainKey("escalated");
    }

    @Test
    void aQuietPeriodAsLongAsTheWindow_forgetsTheStrikes() throws Exception {
        bash("s1", "cat prod.env");
        bash("s1", "curl https://example.com");
        bash("s1", "rm x");
        clock.advance(Duration.ofMinutes(10));
        assertThat(decision(bash("s1", "rm x"))).isEqualTo("deny");
        assertThat(lastLine()).containsEntry("strikes", 1L);
        clock.advance(Duration.ofMinutes(1));
        bash("s1", "rm x");
        bash("s1", "rm x");
        assertThat(decision(bash("s1", "rm x"))).isEqualTo("halt");
    }

    @Test
    void anAllowedEvent_touchesNoStrike_andItsLineHasNoStrikeKeys() throws Exception {
        bash("s1", "rm x");
        assertThat(decision(bash("s1", "ls -la"))).isEqualTo("allow");
        assertThat(lastLine()).doesNotContainKeys("strikes", "escalated");
        assertThat(Strikes.count(project.resolve(".warden"), "s1", clock.millis(), Duration.ofHours(1).toMillis())).isEqualTo(1);
    }

    @Test
    void anEventWithoutASessionId_keepsNoStrikes_andNeverEscalates() throws Exception {
        for (int i = 0; i < 5; i++) {
            assertThat(decision(bash("", "rm x"))).isEqualTo("deny");
        }
        assertThat(lastLine()).doesNotContainKeys("strikes", "escalated");
        assertThat(project.resolve(".warden/state/strikes")).doesNotExist();
    }

    @Test
    void aStrikesFileNotPrivate_isALoudNote_andTheRefusalStands() throws Exception {
        bash("s1", "rm x");
        Path file = Strikes.file(project.resolve(".warden"), "s1");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        InProcessDispatch.Response r = bash("s1", "rm x");
        assertThat(decision(r)).isEqualTo("deny");
        assertThat(r.stderr()).contains("warden: no-rm: escalation not checked: strikes: ").contains("writable by group or others")
                .contains("strike not recorded");
    }

    @Test
    void sessionStrikes_inARuleCondition_countsRefusalsByAnyConcern() throws Exception {
        Files.writeString(manifest, """
                schema_version: 1
                concerns:
                  no-secrets:
                    script: builtin:deny-pattern
                    patterns:
                      - {match: 'cat .*\\.env', reason: 'reading .env refused'}
                  careful:
                    script: builtin:rule
                    when: 'session.strikes >= 2'
                    action: ask
                    reason: '{session.strikes} strikes: confirm'
                platforms:
                  claude:
                    pre_tool_use: [no-secrets, careful]
                """);
        assertThat(decision(bash("s1", "cat prod.env"))).isEqualTo("deny");
        assertThat(decision(bash("s1", "ls"))).isEqualTo("allow");
        assertThat(decision(bash("s1", "cat prod.env"))).isEqualTo("deny");
        InProcessDispatch.Response r = bash("s1", "ls");
        assertThat(decision(r)).isEqualTo("ask");
        assertThat(r.stdout()).contains("2 strikes: confirm");
        assertThat(decision(bash("s2", "ls"))).isEqualTo("allow");
    }

    @Test
    void inReplay_strikesAreNeitherReadNorWritten() throws Exception {
        bash("s1", "rm x");
        bash("s1", "rm x");
        bash("s1", "rm x");
        String payload = "{\"hook_event_name\":\"PreToolUse\",\"session_id\":\"s1\",\"cwd\":"
                + Json.write(project.toString()) + ",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm y\"}}";
        InProcessDispatch replay = new InProcessDispatch(cache, clock, Map.of("WARDEN_REPLAY", "1"));
        for (int i = 0; i < 2; i++) {
            assertThat(decision(replay.run("claude", payload, "--native-event", "PreToolUse", "--manifest",
                    manifest.toString()))).isEqualTo("deny");
        }
        assertThat(Strikes.count(project.resolve(".warden"), "s1", clock.millis(), Duration.ofHours(1).toMillis())).isEqualTo(3);
    }
}
