package dev.agentwarden.decision;

import dev.agentwarden.testing.WardenProcess;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.host.HostResponse;
import dev.agentwarden.json.Json;
import dev.agentwarden.digest.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DecisionLogTest {
    private static final String SECRET_PROMPT = "sk-live-PROMPT-7f3a9c1e55d04b2a";
    private static final String SECRET_INPUT = "ghp_INPUTsecret0123456789abcdefXYZ";

    @TempDir
    Path tmp;

    @Test
    void shadowConcern_thatWouldBlock_isRecordedWhileTheAnswerAllows() throws Exception {
        DecisionProject p = new DecisionProject(tmp, DecisionProject.MANIFEST);
        HostResponse r = p.dispatch("PreToolUse", bash("sess-1", "sudo ls"));

        assertThat(r.stdout()).isEmpty();
        Map<String, Object> d = Json.parseObject(p.lines().get(0));
        assertThat(d.get("verdict")).isEqualTo("allow");
        assertThat(d.get("emitted")).isEqualTo("none");
        Map<String, Object> shadow = concern(d, "sudo-shadow");
        assertThat(shadow.get("posture")).isEqualTo("shadow");
        assertThat(shadow.get("outcome")).isEqualTo("block");
        assertThat(shadow.get("effective")).isEqualTo("allow");
        assertThat(shadow.get("would_block")).isEqualTo(true);
        assertThat(shadow.get("reason_sha256"))
                .isEqualTo(Sha256.hex("sudo escalates privileges".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void everyDispatch_appendsOneLine_inTheMonthSegmentOfItsClock() throws Exception {
        DecisionProject p = new DecisionProject(tmp, DecisionProject.MANIFEST);
        p.dispatch("PreToolUse", bash("s", "ls"));
        p.dispatch("PreToolUse", bash("s", "rm -rf /"));
        p.dispatch("UserPromptSubmit", "{\"session_id\":\"s\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"hi\"}");

        assertThat(Files.exists(p.logDir().resolve("2026-11.jsonl"))).isTrue();
        List<String> lines = p.lines();
        assertThat(lines).hasSize(3);
        assertThat(Json.parseObject(lines.get(1)).get("verdict")).isEqualTo("block");
        assertThat(Json.parseObject(lines.get(1)).get("emitted")).isEqualTo("deny");
        assertThat(Json.parseObject(lines.get(2)).get("tool_input_sha256")).isNull();
    }

    @Test
    void privacy_secretsInPromptToolInputAndReasons_neverReachTheStateDir() throws Exception {
        Path script = tmp.resolve("echo-input.sh");
        WardenProcess.writeScript(script, "#!/bin/sh\ninput=$(cat)\necho \"saw: $input\"\necho \"also saw: $input\" >&2\nexit 2\n", "rwxr-xr-x");
        DecisionProject p = new DecisionProject(tmp, DecisionProject.MANIFEST
                .replace("concerns:\n", "concerns:\n  echo:\n    script: echo-input.sh\n    posture: shadow\n")
                .replace("pre_tool_use: [no-rm-root,", "pre_tool_use: [echo, no-rm-root,")
                .replace("user_prompt_submit: [sudo-shadow]", "user_prompt_submit: [echo, sudo-shadow]"));

        p.dispatch("UserPromptSubmit", "{\"session_id\":\"s\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"use "
                + SECRET_PROMPT + " with sudo\"}");
        p.dispatch("PreToolUse", bash("s", "curl -H 'Authorization: " + SECRET_INPUT + "' x && sudo rm -rf /"));

        assertThat(p.lines()).hasSize(2);
        Map<String, Object> echo = concern(Json.parseObject(p.lines().get(1)), "echo");
        assertThat(echo.get("outcome")).as("the echoing concern ran").isNotEqualTo("skipped");
        assertThat(echo.get("reason_sha256")).as("its reason, which holds the input, kept as a hash").isNotNull();
        try (Stream<Path> files = Files.walk(p.dir.resolve(".warden"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String text = Files.readString(f, StandardCharsets.ISO_8859_1);
                assertThat(text).as("%s", f).doesNotContain(SECRET_PROMPT).doesNotContain(SECRET_INPUT)
                        .doesNotContain("PROMPT-7f3a").doesNotContain("INPUTsecret");
            }
        }
    }

    /**
     * Issue 28 item 8: Cline runs UserPromptSubmit detached, so a block there is a downgrade note that
     * quotes the verdict; with reasons hashed, no line of a multi-line reason or context may reach the log.
     */
    @Test
    void issue28_hashedReasons_clineBlockedPrompt_multiLineReasonAndContextNamingAKey_neverReachTheLog() throws Exception {
        String key = "sk-ant-api03-Zq8vR2mX9kLw4TnB7yHc1PdF6sJe0UgA3oKi5VbN-xQ2rYt8Mw";
        Path script = tmp.resolve("names-key.sh");
        WardenProcess.writeScript(script, "#!/bin/sh\ncat > /dev/null\n"
                + "printf '%s' '{\"reason\":\"prompt holds a credential\\n" + key + " must be rotated\",'\n"
                + "printf '%s' '\"additional_context\":\"rotate it\\n" + key + "\\nthen: retry " + key + "\"}'\n"
                + "exit 1\n", "rwxr-xr-x");
        DecisionProject p = new DecisionProject(tmp, """
                schema_version: 1
                concerns:
                  names-key:
                    script: names-key.sh
                platforms:
                  cline:
                    user_prompt_submit: [names-key]
                native_event_aliases:
                  cline:
                    UserPromptSubmit: user_prompt_submit
                decision_log:
                  reasons: hashed
                """);
        String payload = "{\"taskId\":\"conv_1\",\"sessionContext\":{\"rootSessionId\":\"r1\"},\"workspaceRoots\":["
                + Json.write(p.dir.toString()) + "],\"agent_id\":\"agent_1\",\"parent_agent_id\":null,"
                + "\"hookName\":\"prompt_submit\",\"userPromptSubmit\":{\"prompt\":\"hello\"}}";

        HostResponse r = p.dispatchAs("cline", "UserPromptSubmit", payload, DecisionLog.OWN_JVM);

        assertThat(r.stderr()).as("the host's own stderr note still quotes the concern").contains(key);
        assertThat(p.lines()).hasSize(1);
        Map<String, Object> d = Json.parseObject(p.lines().get(0));
        assertThat(d.get("verdict")).isEqualTo("block");
        assertThat(concern(d, "names-key").get("reason_sha256")).isNotNull();
        assertThat((List<?>) d.get("downgrades")).as("the downgrade is still recorded")
                .anySatisfy(n -> assertThat((String) n).contains("not delivered on UserPromptSubmit"));
        try (Stream<Path> files = Files.list(p.logDir())) {
            for (Path f : files.toList()) {
                String text = Files.readString(f, StandardCharsets.ISO_8859_1);
                assertThat(text).as("%s", f).doesNotContain(key).doesNotContain("Zq8vR2mX9kLw4TnB")
                        .doesNotContain("rotate it").doesNotContain("credential");
            }
        }
    }

    @Test
    void processConcern_exitCode_isRecordedPerConcern_andNullForBuiltins() throws Exception {
        DecisionProject p = withExitScript(3);
        p.dispatch("PreToolUse", bash("s", "sudo ls"));

        Map<String, Object> d = Json.parseObject(p.lines().get(0));
        assertThat(concern(d, "exits").get("outcome")).isEqualTo("error");
        assertThat(concern(d, "exits").get("exit_code")).isEqualTo(3L);
        assertThat(concern(d, "sudo-shadow")).containsEntry("exit_code", null);
        assertThat(concern(d, "env-files")).containsEntry("outcome", "skipped").containsEntry("exit_code", null);
    }

    @Test
    void concernElapsedUs_isMeasuredInMicroseconds_notWholeMilliseconds() throws Exception {
        DecisionProject p = withExitScript(0);
        for (int i = 0; i < 3; i++) {
            p.dispatch("PreToolUse", bash("s", "ls"));
        }

        // A process concern takes milliseconds; at millisecond resolution every value was a multiple of
        // 1000. Three runs all landing on a whole millisecond by chance: one in a billion.
        List<Long> elapsed = new ArrayList<>();
        for (String line : p.lines()) {
            elapsed.add((Long) concern(Json.parseObject(line), "exits").get("elapsed_us"));
        }
        assertThat(elapsed).hasSize(3).allMatch(us -> us > 0).anyMatch(us -> us % 1000 != 0);
    }

    private DecisionProject withExitScript(int exit) throws IOException {
        Path script = tmp.resolve("exits.sh");
        WardenProcess.writeScript(script, "#!/bin/sh\ncat > /dev/null\nexit " + exit + "\n", "rwxr-xr-x");
        return new DecisionProject(tmp, DecisionProject.MANIFEST
                .replace("concerns:\n", "concerns:\n  exits:\n    script: exits.sh\n")
                .replace("pre_tool_use: [no-rm-root,", "pre_tool_use: [exits, no-rm-root,"));
    }

    @Test
    void toolInputSha256_isOverTheToolInputBytesAsReceived() throws Exception {
        DecisionProject p = new DecisionProject(tmp, DecisionProject.MANIFEST);
        String toolInput = "{ \"command\" : \"ls  -la\",\"n\":1.50 }";
        p.dispatch("PreToolUse", "{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
                + "\"tool_input\":  " + toolInput + "  }");

        assertThat(Json.parseObject(p.lines().get(0)).get("tool_input_sha256"))
                .isEqualTo(Sha256.hex(toolInput.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void verbatimReasons_optedInByTheManifest_areRecorded() throws Exception {
        DecisionProject p = new DecisionProject(tmp, DecisionProject.MANIFEST + "decision_log:\n  reasons: verbatim\n");
        p.dispatch("PreToolUse", bash("s", "sudo ls"));

        assertThat(concern(Json.parseObject(p.lines().get(0)), "sudo-shadow").get("reason"))
                .isEqualTo("sudo escalates privileges");
    }

    @Test
    void manifest_decisionLogReasons_acceptsHashedAndVerbatim_refusesAnythingElse() throws Exception {
        String base = DecisionProject.MANIFEST + "decision_log:\n  reasons: ";
        assertThat(compile(base + "verbatim\n").manifest().verbatimReasons()).isTrue();
        assertThat(compile(base + "hashed\n").manifest().verbatimReasons()).isFalse();
        assertThat(compile(DecisionProject.MANIFEST).manifest().verbatimReasons()).as("the default").isTrue();
        assertThat(compile(base + "everything\n").problems())
                .anySatisfy(pr -> assertThat(pr.toString()).contains("decision_log.reasons").contains("hashed or verbatim"));
    }

    private static dev.agentwarden.manifest.ManifestCompiler.Result compile(String yaml) throws Exception {
        return dev.agentwarden.manifest.ManifestCompiler.compile("m.yaml", yaml, "0");
    }

    @Test
    void append_decisionsDirIsASymlink_answerUnchangedAndStderrSaysSo() throws Exception {
        DecisionProject p = new DecisionProject(tmp, DecisionProject.MANIFEST);
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.createDirectories(p.logDir().getParent());
        Files.createSymbolicLink(p.logDir(), outside);
        p.env.put("WARDEN_DECISION_LOG", "off");
        HostResponse unlogged = p.dispatch("PreToolUse", bash("s", "rm -rf /"));
        p.env.remove("WARDEN_DECISION_LOG");

        HostResponse r = p.dispatch("PreToolUse", bash("s", "rm -rf /"));

        assertThat(r.exitCode()).isEqualTo(unlogged.exitCode());
        assertThat(r.stdout()).isEqualTo(unlogged.stdout()).contains("deny");
        assertThat(r.stderr()).contains("decision log not written").contains("symbolic link")
                .contains("the hook answer is unchanged");
        try (Stream<Path> files = Files.list(outside)) {
            assertThat(files.toList()).as("nothing written through the link").isEmpty();
        }
    }

    @Test
    void replayMode_writesNoDecision() throws Exception {
        DecisionProject p = new DecisionProject(tmp, DecisionProject.MANIFEST);
        p.env.put("WARDEN_REPLAY", "1");
        p.dispatch("PreToolUse", bash("s", "rm -rf /"));

        assertThat(Files.exists(p.dir.resolve(".warden"))).isFalse();
    }

    @Test
    void sessionId_notWordShaped_isWrittenAsTheLedgerWritesIt_andLogFindsItByEither() throws Exception {
        DecisionProject p = new DecisionProject(tmp, DecisionProject.MANIFEST);
        String session = "session " + SECRET_PROMPT + " ../../etc/passwd";
        p.dispatch("PreToolUse", bash(session, "ls"));

        String line = p.lines().get(0);
        assertThat(line).doesNotContain(SECRET_PROMPT).doesNotContain("passwd");
        String label = (String) Json.parseObject(line).get("session_id");
        assertThat(label).isEqualTo(dev.agentwarden.ledger.SubagentFields.sessionLabel(session)).startsWith("sha256:");
        DecisionFilter byRaw = new DecisionFilter(null, session, null, null, null, false);
        DecisionFilter byLabel = new DecisionFilter(null, label, null, null, null, false);
        assertThat(byRaw.matches(Json.parseObject(line))).isTrue();
        assertThat(byLabel.matches(Json.parseObject(line))).isTrue();
    }

    @Test
    void decisionLogOff_writesNothing() throws Exception {
        DecisionProject p = new DecisionProject(tmp, DecisionProject.MANIFEST);
        p.env.put("WARDEN_DECISION_LOG", "off");
        p.dispatch("PreToolUse", bash("s", "ls"));

        assertThat(Files.exists(p.logDir())).isFalse();
    }

    @Test
    void manifestUnusable_recordsTheProblemAndThatTheFailModeDecided() throws Exception {
        DecisionProject p = new DecisionProject(tmp, "schema_version: 1\nconcerns: [not, a, map]\n");
        p.dispatch("PreToolUse", bash("s", "ls"));

        Map<String, Object> d = Json.parseObject(p.lines().get(0));
        assertThat(d.get("problem")).isEqualTo("manifest_unusable");
        assertThat(d.get("fail_mode")).isEqualTo("open");
        assertThat(d.get("verdict")).isEqualTo("allow");
        assertThat(d.get("manifest")).isNull();
    }

    @Test
    void blockOnAnEventTheHostCannotRefuse_recordsTheAdaptersDowngrade() throws Exception {
        DecisionProject p = new DecisionProject(tmp, DecisionProject.MANIFEST
                .replace("user_prompt_submit: [sudo-shadow]", "user_prompt_submit: [sudo-shadow]\n    pre_compact: [halt-all]")
                .replace("concerns:\n", "concerns:\n  halt-all:\n    script: builtin:deny-pattern\n    patterns:\n"
                        + "      - {match: 'manual', reason: 'no compaction'}\n")
                .replace("Stop: stop", "Stop: stop\n    PreCompact: pre_compact"));
        p.dispatch("PreCompact", "{\"session_id\":\"s\",\"hook_event_name\":\"PreCompact\",\"last_assistant_message\":\"manual\"}");

        Map<String, Object> d = Json.parseObject(p.lines().get(0));
        assertThat(d.get("verdict")).isEqualTo("block");
        assertThat(d.get("emitted")).isEqualTo("context");
        assertThat((List<?>) d.get("downgrades")).singleElement().asString().contains("downgraded");
    }

    @Test
    void concurrentWriters_linesNeverInterleave() throws Exception {
        String root = tmp.toString();
        int threads = 8;
        int perThread = 300;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> writers = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread w = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        String line = "{\"w\":" + id + ",\"i\":" + i + ",\"pad\":\"" + String.valueOf((char) ('a' + id)).repeat(3000 + id * 97) + "\"}\n";
                        DecisionLog.write(root, "2026-11", line.getBytes(StandardCharsets.UTF_8));
                    }
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            });
            w.start();
            writers.add(w);
        }
        start.countDown();
        for (Thread w : writers) {
            w.join();
        }
        assertThat(failures).isEmpty();
        String text = Files.readString(DecisionLog.dir(root).resolve("2026-11.jsonl"));
        String[] lines = text.split("\n");
        assertThat(lines).hasSize(threads * perThread);
        Set<String> seen = new HashSet<>();
        for (String l : lines) {
            Map<String, Object> d = Json.parseObject(l);
            int w = ((Long) d.get("w")).intValue();
            assertThat((String) d.get("pad")).as("one writer's bytes only").hasSize(3000 + w * 97)
                    .matches("[" + (char) ('a' + w) + "]+");
            seen.add(w + ":" + d.get("i"));
        }
        assertThat(seen).hasSize(threads * perThread);
    }

    static String bash(String session, String command) {
        return "{\"session_id\":\"" + session + "\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
                + "\"tool_input\":{\"command\":" + Json.write(command) + "}}";
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> concern(Map<String, Object> d, String name) {
        for (Object o : (List<?>) d.get("concerns")) {
            Map<String, Object> c = (Map<String, Object>) o;
            if (name.equals(c.get("name"))) {
                return c;
            }
        }
        throw new AssertionError("no concern " + name + " in " + d);
    }
}
