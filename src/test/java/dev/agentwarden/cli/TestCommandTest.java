package dev.agentwarden.cli;

import dev.agentwarden.testing.WardenProcess;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.testing.TestTrust;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code warden test}: policy cases through the real dispatch path, with nothing written to the project. */
class TestCommandTest {
    @TempDir
    Path tmp;

    Path project() throws IOException {
        return Files.createDirectories(tmp.resolve("proj"));
    }

    Map<String, String> env() {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("XDG_STATE_HOME", TestTrust.stateHome(tmp));
        env.put("WARDEN_CACHE_DIR", tmp.resolve("cache").toString());
        return env;
    }

    CliRun warden(String... args) {
        return CliRun.in(env(), args);
    }

    private Path write(String name, String text) throws IOException {
        Path f = tmp.resolve(name);
        Files.createDirectories(f.getParent());
        Files.writeString(f, text);
        return f;
    }

    static final String MIXED = """
            cases:
              - name: no-verify is refused
                host: claude
                event: PreToolUse
                payload: {tool_name: Bash, tool_input: {command: "git commit --no-verify -m x"}}
                verdict: block
                reason_contains: hooks
              - name: wrongly expects ls to be refused
                host: claude
                event: PreToolUse
                payload: {tool_name: Bash, tool_input: {command: "ls"}}
                verdict: block
              - name: wrong reason
                host: codex
                event: PreToolUse
                payload: {tool_name: Bash, tool_input: {command: "git push --no-verify"}}
                verdict: block
                reason_contains: not in the reason
            """;

    @Test
    void test_failingCases_oneLineEach_countsAndExit1() throws IOException {
        Path file = write("t/mixed.yaml", MIXED);

        CliRun r = warden("test", file.toString(), "--project-dir", project().toString());

        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo("manifest: builtin:default-manifest.yaml");
        assertThat(lines.get(1)).startsWith("ok    ").endsWith("mixed.yaml: no-verify is refused (block)");
        assertThat(lines.get(2)).startsWith("FAIL  ").contains("wrongly expects ls to be refused: expected block, got allow");
        assertThat(lines.get(3)).startsWith("FAIL  ").contains("wrong reason: reason does not contain \"not in the reason\"")
                .contains("— reason: ");
        assertThat(lines.get(4)).isEqualTo("1 passed, 2 failed");
        assertThat(lines).hasSize(5);
    }

    @Test
    void test_passingCases_exit0() throws IOException {
        Path file = write("t/ok.yaml", """
                cases:
                  - name: ls passes with no output
                    host: claude
                    event: PreToolUse
                    payload: {tool_name: Bash, tool_input: {command: "ls"}}
                    verdict: allow
                    output: ""
                  - name: Codex Stop gets {}
                    host: codex
                    event: Stop
                    verdict: allow
                    output: "{}"
                """);

        CliRun r = warden("test", file.toString(), "--project-dir", project().toString());

        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).endsWith("2 passed, 0 failed\n");
    }

    @Test
    void test_json_reportsEachCaseForCi() throws IOException {
        Path file = write("t/mixed.yaml", MIXED);

        CliRun r = warden("test", file.toString(), "--json", "--project-dir", project().toString());

        assertThat(r.exit()).isEqualTo(1);
        Map<String, Object> json = Json.parseObject(r.out());
        assertThat(json).containsEntry("passed", 1L).containsEntry("failed", 2L);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> cases = (List<Map<String, Object>>) json.get("cases");
        assertThat(cases).extracting(c -> c.get("verdict")).containsExactly("block", "allow", "block");
        assertThat(cases).extracting(c -> c.get("passed")).containsExactly(true, false, false);
        assertThat((String) cases.get(0).get("stdout")).contains("\"permissionDecision\":\"deny\"");
    }

    @Test
    void test_exactHostOutput_mismatchFails() throws IOException {
        Path file = write("t/out.yaml", """
                cases:
                  - name: expects output where Claude Code gets none
                    host: claude
                    event: PreToolUse
                    payload: {tool_name: Bash, tool_input: {command: "ls"}}
                    verdict: allow
                    output: '{"continue": true}'
                """);

        CliRun r = warden("test", file.toString(), "--project-dir", project().toString());

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("host output differs: expected {\"continue\": true}, got (nothing)");
    }

    @Test
    void test_writesNoStateInTheProject() throws IOException {
        Path project = project();
        Path file = write("t/stateful.yaml", """
                cases:
                  - {name: spawn, host: claude, event: PreToolUse, verdict: allow,
                     payload: {tool_name: Task, tool_input: {prompt: go, subagent_type: general-purpose}}}
                  - {name: start, host: claude, event: SubagentStart, verdict: allow}
                  - {name: stop, host: claude, event: SubagentStop, verdict: allow}
                  - {name: refused, host: claude, event: PreToolUse, verdict: block,
                     payload: {tool_name: Bash, tool_input: {command: "git commit -n"}}}
                """);

        CliRun r = warden("test", file.toString(), "--project-dir", project.toString());

        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        try (Stream<Path> s = Files.list(project)) {
            assertThat(s).as("no ledger, open record or decision line").isEmpty();
        }
    }

    @Test
    void test_omittedFields_filledAsTheHostSendsThem() throws IOException {
        Path project = project();
        Path script = WardenProcess.writeScript(Files.createDirectories(tmp.resolve("proj")).resolve("check.sh"), """
                #!/usr/bin/env bash
                envelope="$(cat)"
                for want in '"hook_event_name":"PreToolUse"' '"cwd":"%s"' '"session_id":"' '"tool_use_id":"toolu_' \
                            '"permission_mode":"default"'; do
                  case "$envelope" in *"$want"*) ;; *) echo "{\\"reason\\": \\"missing $want\\"}"; exit 1 ;; esac
                done
                exit 0
                """.formatted(project), "rwx------");
        Path manifest = write("m.yaml", """
                schema_version: 1
                concerns:
                  check: {script: check.sh, posture: blocking}
                platforms:
                  claude: {pre_tool_use: [check]}
                native_event_aliases:
                  claude: {PreToolUse: pre_tool_use}
                """);
        Path file = write("t/fill.yaml", """
                cases:
                  - {name: only the tool, host: claude, event: PreToolUse, verdict: allow,
                     payload: {tool_name: Bash, tool_input: {command: ls}}}
                """);

        CliRun r = warden("test", file.toString(), "--manifest", manifest.toString(), "--project-dir", project.toString());

        assertThat(r.out()).as(r.err()).contains("1 passed, 0 failed");
    }

    @Test
    void test_payloadFile_relativeToTheTestFile_andEnvRoleAndFailMode() throws IOException {
        write("t/payloads/nv.json", "{\"tool_name\": \"Bash\", \"tool_input\": {\"command\": \"git commit --no-verify\"}}");
        write("t/bad.json", "not json");
        Path file = write("t/files.yaml", """
                cases:
                  - {name: from a file, host: claude, event: PreToolUse, payload_file: payloads/nv.json, verdict: block,
                     env: {role: worker}}
                  - {name: unreadable payload fails open, host: claude, event: PreToolUse, payload_file: bad.json,
                     verdict: allow, reason_contains: payload_not_json}
                  - {name: a broken manifest fails closed, host: claude, event: PreToolUse, verdict: block,
                     env: {fail_mode: closed}, payload: {tool_name: Bash, tool_input: {command: ls}}}
                """);
        Path broken = write("broken.yaml", "schema_version: 1\nconcerns: [");

        CliRun open = warden("test", file.toString(), "--project-dir", project().toString());
        CliRun closed = warden("test", file.toString(), "--manifest", broken.toString(), "--project-dir", project().toString());

        assertThat(open.out()).contains("ok    ").contains("from a file (block)").contains("unreadable payload fails open (allow)")
                .contains("FAIL  ").contains("a broken manifest fails closed: expected block, got allow");
        assertThat(closed.out()).contains("a broken manifest fails closed (block)");
    }

    @Test
    void test_malformedCase_exit2_namesFileAndCase() throws IOException {
        Path file = write("t/bad.yaml", """
                cases:
                  - {name: typo, host: claude, event: PreToolUse, verdict: block, reason_contain: x}
                """);

        CliRun r = warden("test", file.toString(), "--project-dir", project().toString());

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains(file + ": case 1 (typo): unknown key `reason_contain`").contains("reason_contains");
    }

    @Test
    void test_noPaths_readsDotWardenTests_orSaysWhereToPutThem() throws IOException {
        Path project = project();
        CliRun none = warden("test", "--project-dir", project.toString());
        Files.createDirectories(project.resolve(".warden/tests"));
        Files.writeString(project.resolve(".warden/tests/a.yml"), "cases:\n  - {host: claude, event: Stop, verdict: allow}\n");
        CliRun found = warden("test", "--project-dir", project.toString());

        assertThat(none.exit()).isEqualTo(2);
        assertThat(none.err()).contains("no test files").contains(".warden/tests");
        assertThat(found.out()).as(found.err()).contains("claude Stop → allow (allow)").contains("1 passed, 0 failed");
    }

    @Test
    void shippedExamples_passAgainstTheDefaultManifest() throws IOException {
        CliRun r = warden("test", Path.of("examples/policy-tests").toAbsolutePath().toString(),
                "--project-dir", project().toString());

        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains(" passed, 0 failed").doesNotContain("FAIL");
    }

    @Test
    void shippedRuleExamples_passAgainstTheirManifest() throws IOException {
        CliRun r = warden("test", Path.of("examples/rules/tests.yaml").toAbsolutePath().toString(),
                "--manifest", Path.of("examples/rules/manifest.yaml").toAbsolutePath().toString(),
                "--project-dir", project().toString());

        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("8 passed, 0 failed").doesNotContain("FAIL");
    }
}
