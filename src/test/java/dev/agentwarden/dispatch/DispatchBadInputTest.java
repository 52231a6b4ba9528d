package dev.agentwarden.dispatch;

import dev.agentwarden.testing.DispatchCall;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad stdin never crashes dispatch and never yields more than one JSON object: with a fail_closed
 * blocking concern bound on PreToolUse it is refused; where the event cannot block, or nothing
 * bound is fail_closed, it is allowed with a note on stderr.
 */
class DispatchBadInputTest {
    @RegisterExtension
    static final GoldenCorpus.Project project = new GoldenCorpus.Project();

    static Stream<Named<BadInputs.BadInput>> inputs() {
        return BadInputs.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inputs")
    void dispatch_badInputOnPreToolUseWithFailClosedConcern_refusesOrRunsChain(BadInputs.BadInput input) {
        GoldenCorpus.Outcome o = run(BadInputs.argv("PreToolUse", true), input.stdin().get(), Map.of());

        BadInputs.assertWellBehaved(o);
        if (input.problem() == null) {
            assertThat(o.stdout()).as("readable: the chain ran and found nothing").isEmpty();
            assertThat(o.stderr()).isEmpty();
        } else {
            BadInputs.assertDenied(o, input.problem());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inputs")
    void dispatch_badInputOnNonBlockableEvent_allows(BadInputs.BadInput input) {
        GoldenCorpus.Outcome o = run(BadInputs.argv("SessionEnd", true), input.stdin().get(), Map.of());

        BadInputs.assertWellBehaved(o);
        assertThat(o.stdout()).isEmpty();
        if (input.problem() != null) {
            assertThat(o.stderr()).startsWith("warden: " + input.problem()).endsWith("; allowing\n");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inputs")
    void dispatch_badInputWithoutFailClosedConcern_allows(BadInputs.BadInput input) {
        GoldenCorpus.Outcome o = run(BadInputs.argv("PreToolUse", false), input.stdin().get(), Map.of());

        BadInputs.assertWellBehaved(o);
        assertThat(o.stdout()).isEmpty();
        if (input.problem() != null) {
            assertThat(o.stderr()).startsWith("warden: " + input.problem()).endsWith("; allowing\n");
        }
    }

    @Test
    void dispatch_payloadCapFromEnv_smallerLimitApplies() {
        byte[] ok = "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}"
                .getBytes(StandardCharsets.UTF_8);

        GoldenCorpus.Outcome o = run(BadInputs.argv("PreToolUse", true), ok, Map.of("WARDEN_MAX_PAYLOAD_BYTES", "20"));

        BadInputs.assertDenied(o, "payload_too_large");
        assertThat(o.stderr()).contains("stdin over 20 bytes");
    }

    /**
     * Regression: a payload cap near Integer.MAX_VALUE overflowed the read buffer's size
     * ({@code max + 1}), so every dispatch became an internal error and failed open, whatever the
     * policy said.
     */
    @Test
    void payloadCapOverflow_hugeLimit_policyStillApplies() {
        byte[] denied = "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"git commit --no-verify\"}}"
                .getBytes(StandardCharsets.UTF_8);

        for (String limit : List.of("2147483647", "2147483646", "1073741824")) {
            GoldenCorpus.Outcome o = run(BadInputs.argv("PreToolUse", true), denied, Map.of("WARDEN_MAX_PAYLOAD_BYTES", limit));

            assertThat(o.stderr()).as(limit).doesNotContain("internal error");
            assertThat(o.stdout()).as(limit).contains("\"permissionDecision\":\"deny\"").contains("git hooks must not be skipped");
        }
    }

    @Test
    void dispatch_stdinThrows_unreadableRefusedOnPreToolUse() {
        InputStream broken = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("Input/output error");
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                throw new IOException("Input/output error");
            }
        };

        GoldenCorpus.Outcome o = run(BadInputs.argv("PreToolUse", true), broken, Map.of());

        BadInputs.assertWellBehaved(o);
        BadInputs.assertDenied(o, "payload_unreadable");
    }

    static Stream<List<String>> badArguments() {
        return Stream.of(
                List.of("dispatch"),
                List.of("dispatch", "--host"),
                List.of("dispatch", "--host", "claude", "--bogus", "x"),
                List.of("dispatch", "--host", "claude", "--native-event"));
    }

    @ParameterizedTest
    @MethodSource("badArguments")
    void dispatch_badArguments_usageOnStderrAndAllow(List<String> argv) {
        GoldenCorpus.Outcome o = run(argv, "{}".getBytes(StandardCharsets.UTF_8), Map.of());

        BadInputs.assertWellBehaved(o);
        assertThat(o.stdout()).isEmpty();
        assertThat(o.stderr()).startsWith("warden dispatch: ").contains("usage: warden dispatch --host H");
    }

    @Test
    void dispatch_unknownHost_allowsWithNote() {
        GoldenCorpus.Outcome o = run(List.of("dispatch", "--host", "emacs"), "{}".getBytes(StandardCharsets.UTF_8), Map.of());

        assertThat(o).isEqualTo(new GoldenCorpus.Outcome(0, "", "warden: unknown host 'emacs'. Known hosts: "
                + String.join(", ", dev.agentwarden.host.Hosts.KNOWN) + ". Allowing (WARDEN_FAIL_MODE=closed would refuse).\n"));
    }

    /** {@code --host claude-code} (the npm package's name) is Claude Code: its rule fires and the answer is Claude's. */
    @Test
    void dispatch_hostAlias_answersAsTheHost() {
        byte[] payload = "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"git commit --no-verify\"}}"
                .getBytes(StandardCharsets.UTF_8);

        GoldenCorpus.Outcome byAlias = run(List.of("dispatch", "--host", "claude-code", "--native-event", "PreToolUse"),
                payload, Map.of());
        GoldenCorpus.Outcome byId = run(List.of("dispatch", "--host", "claude", "--native-event", "PreToolUse"),
                payload, Map.of());

        assertThat(byAlias.stderr()).doesNotContain("unknown host");
        assertThat(byAlias.stdout()).isEqualTo(byId.stdout()).contains("deny");
        assertThat(byAlias.exitCode()).isEqualTo(byId.exitCode());
    }

    /** A mistyped host allowed with "no adapter" and no hint; now the note names the host meant, and closed mode refuses. */
    @Test
    void dispatch_mistypedHost_namesTheHostMeant_closedModeRefuses() {
        byte[] payload = "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"git commit --no-verify\"}}"
                .getBytes(StandardCharsets.UTF_8);
        List<String> argv = List.of("dispatch", "--host", "claud", "--native-event", "PreToolUse");

        GoldenCorpus.Outcome open = run(argv, payload, Map.of());
        GoldenCorpus.Outcome closed = run(argv, payload, Map.of("WARDEN_FAIL_MODE", "closed"));

        assertThat(open.exitCode()).isZero();
        assertThat(open.stderr()).startsWith("warden: unknown host 'claud'; did you mean `claude`?").contains("Allowing");
        assertThat(closed.exitCode()).as("the generic hook refusal").isEqualTo(2);
        assertThat(closed.stdout()).isEmpty();
        assertThat(closed.stderr()).startsWith("warden: unknown host 'claud'; did you mean `claude`?")
                .contains("Refused (WARDEN_FAIL_MODE=closed)");
    }

    @Test
    void dispatch_manifestMissing_failsOpenByDefault_closedOnRequest() {
        List<String> argv = List.of("dispatch", "--host", "claude", "--native-event", "PreToolUse",
                "--manifest", project.dir.resolve("no-such-manifest.yaml").toString());
        byte[] payload = "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}".getBytes(StandardCharsets.UTF_8);

        GoldenCorpus.Outcome open = run(argv, payload, Map.of());
        GoldenCorpus.Outcome closed = run(argv, payload, Map.of("WARDEN_FAIL_MODE", "closed"));
        GoldenCorpus.Outcome closedNonBlockable = run(List.of("dispatch", "--host", "claude", "--native-event", "SessionEnd",
                "--manifest", project.dir.resolve("no-such-manifest.yaml").toString()), payload, Map.of("WARDEN_FAIL_MODE", "closed"));

        assertThat(open.stdout()).isEmpty();
        assertThat(open.stderr()).startsWith("warden: manifest unusable: ").contains("cannot read").endsWith("; failing open\n");
        assertThat(closed.stdout()).isEqualTo("{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\","
                + "\"permissionDecisionReason\":\"[warden] Warden cannot evaluate policy (WARDEN_FAIL_MODE=closed)\"}}");
        assertThat(closedNonBlockable.stdout()).isEmpty();
        assertThat(closedNonBlockable.stderr()).endsWith("; failing open\n");
    }

    @Test
    void dispatch_manifestWithErrors_failsOpenNamingTheProblem() throws IOException {
        java.nio.file.Path broken = java.nio.file.Files.writeString(project.dir.resolve("broken.yaml"),
                "schema_version: 1\nconcerns: {}\nplatforms:\n  claude:\n    pre_tool_use: ghost\n");

        GoldenCorpus.Outcome o = run(List.of("dispatch", "--host", "claude", "--native-event", "PreToolUse", "--manifest",
                broken.toString()), "{}".getBytes(StandardCharsets.UTF_8), Map.of());

        BadInputs.assertWellBehaved(o);
        assertThat(o.stdout()).isEmpty();
        assertThat(o.stderr()).contains("manifest unusable").contains("broken.yaml:5").contains("platforms.claude.pre_tool_use")
                .endsWith("; failing open\n");
    }

    private static GoldenCorpus.Outcome run(List<String> argv, byte[] stdin, Map<String, String> extraEnv) {
        return run(argv, new ByteArrayInputStream(stdin), extraEnv);
    }

    private static GoldenCorpus.Outcome run(List<String> argv, InputStream stdin, Map<String, String> extraEnv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Map<String, String> env = new java.util.HashMap<>(Map.of("WARDEN_CACHE_DIR", project.cache.toString(),
                "CLAUDE_PROJECT_DIR", project.dir.toString()));
        env.putAll(extraEnv);
        int code = DispatchCall.run(argv.toArray(String[]::new), stdin, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), env, GoldenCorpus.CLOCK);
        return new GoldenCorpus.Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
