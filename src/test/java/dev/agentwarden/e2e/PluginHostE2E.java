package dev.agentwarden.e2e;

import dev.agentwarden.install.HookLauncher;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.ledger.AgentRef;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real host, real verdicts, for the hosts that load OpenCode plugins ({@link OpenCodeE2EIT},
 * {@link KiloE2EIT}): the host's {@code run} command runs complete sessions against a
 * {@link ScriptedModelServer} speaking the Anthropic Messages API on 127.0.0.1, with Warden's bridge
 * plugin installed by {@code warden install --host <id>} into the host's plugin directory; each
 * scenario checks what the host did from the next model request, the project's files and its
 * {@code .warden/} state. Six scenarios (seven sessions) cover nine rows; a subclass names its
 * {@link PluginHostFlavor} and nothing else.
 *
 * <p>The host comes from npm into the e2e cache ({@link PluginHostFlavor#install}), the plugin SDK
 * from the cache's SDK prefix ({@link OpenCodeSession}); the suite skips, loudly, when either is
 * missing.
 *
 * <p>The scenarios run side by side (as many at once as JUnit's pool has threads): a session's time
 * is almost all the host's own start-up (Kilo 7.7.7 spends about 10 s of CPU before its first model
 * request, the same with a warm {@code HOME}), and no scenario shares anything a session writes.
 * Each has its own project, {@code HOME}, {@code TMPDIR}, scripted model (own port), model socket and
 * network namespace; they share only what no session writes: the host binary and its npm prefix,
 * the plugin SDK's {@code node_modules} (linked into each config directory, which the host leaves
 * alone once a lock names the SDK), Warden's launcher and jar, and the suite's
 * {@code WARDEN_CACHE_DIR} (compiled manifests, each keyed by its digest and written atomically, as
 * concurrent hook calls of one host do). So a subclass holds its host's lock in
 * {@link org.junit.jupiter.api.parallel.ResourceAccessMode#READ READ} mode, which lets its own
 * methods run concurrently and still keeps out every suite of the same host that holds the lock
 * READ_WRITE; {@link HostSuiteConcurrencyTest} keeps it the only READ suite of its host, so two suites
 * of one host never overlap. The summary's rows are in the order the scenarios started.
 */
@Tag("e2e")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class PluginHostE2E {
    private final PluginHostFlavor flavor;
    private final E2eSummary summary = new E2eSummary();

    /** The suite's scratch directory: the sandbox helpers and Warden's cache, for the class's lifetime. */
    private Path suiteDir;

    private HostSuite suite;
    private OpenCodeSession opencode;
    private String host;
    private String unavailable;
    private long suiteStart;

    PluginHostE2E(PluginHostFlavor flavor) {
        this.flavor = flavor;
        this.host = flavor.hostId();
    }

    @BeforeAll
    void installHostAndWarden(@TempDir Path dir) throws IOException {
        suiteStart = System.nanoTime();
        suiteDir = dir;
        suite = HostSuite.open(flavor.install(), flavor.name(), flavor.hostId(), summary, suiteDir);
        host = suite.host();
        unavailable = suite.unavailable();
        if (!suite.available()) {
            return;
        }
        Path sdk = HostInstall.cacheRoot().resolve(flavor.sdkPrefix());
        String sdkProblem = OpenCodeSession.sdkProblem(flavor, sdk);
        if (sdkProblem != null) {
            unavailable = flavor.name() + "'s plugin SDK is not pre-seeded (each run would wait ~80 s on npm): " + sdkProblem;
            String banner = "#".repeat(100);
            System.out.println(banner + "\n# E2E SKIPPED: " + unavailable + "\n" + banner);
            System.err.println(banner + "\n# E2E SKIPPED: " + unavailable + "\n" + banner);
            summary.note("SKIPPED: " + unavailable);
            return;
        }
        opencode = new OpenCodeSession(flavor, suite.binary(), sdk, suite.sandbox(), suite.wardenCache());
    }

    @AfterAll
    void printSummary() {
        summary.note("suite wall time: " + (System.nanoTime() - suiteStart) / 1_000_000_000 + " s");
        System.out.println(summary.render());
    }

    /** One session: a denied bash call, then an allowed one whose output carries a concern's context. */
    @Test
    @Order(1)
    void blockingConcern_deniesBash_andAdvisoryContext_reachesTheModelInTheToolOutput(@TempDir Path dir) throws Exception {
        E2eSummary.Row deny = summary.row(host, "blocking concern denies bash",
                "tool result is Warden's reason (thrown by the bridge); command not run; session completes");
        E2eSummary.Row context = summary.row(host, "context after a tool and on the prompt",
                "tool result carries the advisory concern's context; the prompt carries it as a text part");
        E2eProject project = project(dir, deny, context);
        project.concern("ctx.sh", "#!/bin/sh\ncat > /dev/null\n"
                + "printf '{\"additional_context\":\"CTX-5e1: read the test log first\"}\\n'\nexit 2\n");
        project.manifest(manifest("""
                no-denied-marker:
                  script: builtin:deny-pattern
                  posture: blocking
                  tools: [bash]
                  patterns:
                    - match: 'touch denied-marker'
                      reason: "DENY-7f3: denied-marker is off limits"
                ctx:
                  script: .warden/concerns/ctx.sh
                  severity: advisory
                  fail_closed: false
                  timeout_ms: 10000
                """, """
                user_prompt_submit: [ctx]
                pre_tool_use: [no-denied-marker]
                post_tool_use: [ctx]
                """));
        install(project);

        Session run = session(project, "touch the marker", Map.of(), ModelScript.of(
                Turn.tool("denied", "bash", Map.of("command", "touch denied-marker", "description", "touch")),
                Turn.tool("allowed", "bash", Map.of("command", "echo from-allowed", "description", "echo")),
                Turn.text("FINAL: done")));

        Optional<String> denied = run.toolResult("denied");
        Optional<String> allowed = run.toolResult("allowed");
        deny.timing(run.process().millis(), run.firstModelCallMillis());
        context.timing(run.process().millis(), run.firstModelCallMillis());
        deny.observed("result=" + denied.orElse("(none)") + "; marker "
                + (project.exists("denied-marker") ? "CREATED" : "absent") + "; exit " + run.process().exitCode());
        String prompt = run.firstPromptText();
        context.observed("result=" + allowed.orElse("(none)") + "; prompt=" + prompt);
        assertThat(run.process().exitCode()).as(run.describe()).isZero();
        assertThat(denied).as("tool result for the denied call: " + run.describe())
                .hasValueSatisfying(o -> assertThat(o).contains("[warden] DENY-7f3: denied-marker is off limits"));
        assertThat(project.exists("denied-marker")).as("the denied command ran").isFalse();
        deny.pass();
        assertThat(allowed).as("tool result for the allowed call: " + run.describe())
                .hasValueSatisfying(o -> assertThat(o).contains("from-allowed").contains("[warden] CTX-5e1: read the test log first"));
        assertThat(prompt).as("the first request's user message").contains("touch the marker")
                .contains("[warden] CTX-5e1: read the test log first");
        assertThat(run.server().problems()).as("scripted model problems").isEmpty();
        context.pass();
    }

    /**
     * One session: an allowed bash call (a blocking concern that does not match), no-opinion capture
     * on every bound event, and a {@code task} subagent whose child session runs bash.
     */
    @Test
    @Order(2)
    void allowAndNoOpinion_andTaskSubagent_reachTheLedgerAsAChildSession(@TempDir Path dir) throws Exception {
        E2eSummary.Row allow = summary.row(host, "allow: non-matching blocking concern",
                "bash runs; marker created");
        E2eSummary.Row none = summary.row(host, "no opinion on every bound event",
                "capture sees tool.execute.before/after, chat.message, "
                        + "(session.idle best effort: the run may exit first); nothing changes");
        E2eSummary.Row sub = summary.row(host, "task subagent as a child session",
                "ledger subagent_start/stop, ref = hash of the child session id; child's bash carries parentID");
        E2eProject project = project(dir, allow, none, sub);
        project.manifest(manifest("""
                capture:
                  script: %s
                  posture: shadow
                not-this:
                  script: builtin:deny-pattern
                  posture: blocking
                  tools: [bash]
                  patterns:
                    - match: 'rm -rf /nowhere'
                      reason: "never matches"
                subagent-ledger:
                  script: builtin:subagent-ledger
                  posture: shadow
                """.formatted(E2eProject.CAPTURE_SCRIPT), """
                user_prompt_submit: [capture]
                pre_tool_use: [not-this, capture]
                post_tool_use: [capture]
                stop: [capture]
                subagent_start: [capture, subagent-ledger]
                subagent_stop: [capture, subagent-ledger]
                """));
        install(project);

        Session run = session(project, "touch the marker, then delegate", Map.of(), ModelScript.of(
                Turn.tool("allowed", "bash", Map.of("command", "touch allowed-marker", "description", "touch")),
                Turn.spawn("helper", "SUBAGENT-TASK-e2e: touch sub-marker", "general",
                        Turn.tool("sub_touch", "bash", Map.of("command", "touch sub-marker", "description", "touch")),
                        Turn.text("SUB-FINAL: done")),
                Turn.text("FINAL: done")));

        List<Map<String, Object>> envelopes = new ArrayList<>();
        for (Map<String, Object> e : capturedWithRootIdle(project, flavor.rootIdleWait())) {
            envelopes.add(E2eProject.payloadOf(e));
        }
        List<String> trace = new ArrayList<>();
        String child = null;
        for (Map<String, Object> p : envelopes) {
            Map<String, Object> input = map(p.get("input"));
            trace.add(p.get("hook") + (input.get("tool") != null ? " " + input.get("tool") : "")
                    + (p.get("parentID") != null ? " child" : ""));
            if ("event.subagent.created".equals(p.get("hook"))) {
                child = (String) map(map(input.get("properties")).get("info")).get("id");
            }
        }
        List<Map<String, Object>> ledger = new ArrayList<>();
        for (Map<String, Object> l : HostSuite.ledgerLines(project)) {
            if (String.valueOf(l.get("event")).startsWith("subagent_")) {
                ledger.add(l);
            }
        }
        for (E2eSummary.Row r : List.of(allow, none, sub)) {
            r.timing(run.process().millis(), run.firstModelCallMillis());
        }
        allow.observed("marker " + (project.exists("allowed-marker") ? "created" : "ABSENT") + "; exit " + run.process().exitCode());
        none.observed("hooks " + trace);
        sub.observed("ledger " + ledger.stream().map(l -> l.get("event") + "/" + l.get("ref")).toList()
                + "; child " + child + "; sub-marker " + (project.exists("sub-marker") ? "created" : "ABSENT"));

        assertThat(run.process().exitCode()).as(run.describe()).isZero();
        assertThat(project.exists("allowed-marker")).as("the allowed command ran: " + run.describe()).isTrue();
        allow.pass();
        assertThat(trace).as("bound events reached Warden's chain").contains("chat.message", "tool.execute.before bash",
                "tool.execute.after bash");
        assertThat(run.process().stdout()).contains("FINAL: done");
        none.pass();
        assertThat(child).as("event.subagent.created with the child session: " + trace).isNotNull();
        assertThat(trace).as("the child's own bash call carries its lineage").contains("tool.execute.before bash child");
        assertThat(ledger).extracting(l -> l.get("event")).containsExactly("subagent_start", "subagent_stop");
        assertThat(ledger).extracting(l -> l.get("ref")).containsOnly(AgentRef.of(child));
        assertThat(project.exists("sub-marker")).as("the subagent's command ran").isTrue();
        assertThat(run.server().problems()).as("scripted model problems").isEmpty();
        sub.pass();
    }

    /**
     * The captured envelopes once the root session's {@code session.idle} is among them, or as they are
     * when {@code limit} has passed: the bridge's dispatch of idle may still be running when the host's
     * one-shot run has exited, and on a loaded machine the host may cut it off altogether.
     */
    private static List<Map<String, Object>> capturedWithRootIdle(E2eProject project, Duration limit) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            List<Map<String, Object>> captured = project.captured();
            for (Map<String, Object> e : captured) {
                Map<String, Object> p = E2eProject.payloadOf(e);
                if ("event.session.idle".equals(p.get("hook")) && p.get("parentID") == null) {
                    return captured;
                }
            }
            if (System.nanoTime() - deadline >= 0) {
                return captured;
            }
            Thread.sleep(200);
        }
    }

    /** Warden cannot run (no java): by default the bridge lets the call through and says so on stderr. */
    @Test
    @Order(3)
    void wardenCannotRun_failsOpen_loudly(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = summary.row(host, "fail-open: Warden cannot run",
                "bash runs; the host's stderr says Warden could not run and allowed");
        E2eProject project = project(dir, row);
        project.manifest(manifest(DENY_OPEN_MARKER, "pre_tool_use: [no-open-marker]\n"));
        install(project);

        Session run = session(project, "touch the marker", Map.of("WARDEN_JAVA", "/nonexistent/java"), ModelScript.of(
                Turn.tool("open", "bash", Map.of("command", "touch open-marker", "description", "touch")),
                Turn.text("FINAL: done")));

        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("marker " + (project.exists("open-marker") ? "created" : "ABSENT") + "; stderr "
                + grep(run.process().stderr(), "warden"));
        assertThat(run.process().exitCode()).as(run.describe()).isZero();
        assertThat(project.exists("open-marker")).as("the command ran (fail-open): " + run.describe()).isTrue();
        assertThat(run.process().stderr()).contains("no java found").contains("allowing");
        row.pass();
    }

    /** Warden cannot run under WARDEN_FAIL_MODE=closed: the call is refused with the launcher's words. */
    @Test
    @Order(4)
    void wardenCannotRun_underFailClosed_refusesTheCall(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = summary.row(host, "fail-closed: Warden cannot run",
                "tool result says Warden refused (WARDEN_FAIL_MODE=closed); command not run");
        E2eProject project = project(dir, row);
        project.manifest(manifest(DENY_OPEN_MARKER, "pre_tool_use: [no-open-marker]\n"));
        install(project);

        Session run = session(project, "touch the marker",
                Map.of("WARDEN_JAVA", "/nonexistent/java", "WARDEN_FAIL_MODE", "closed"), ModelScript.of(
                        Turn.tool("closed", "bash", Map.of("command", "touch closed-marker", "description", "touch")),
                        Turn.text("FINAL: done")));

        Optional<String> result = run.toolResult("closed");
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("result=" + result.orElse("(none)") + "; marker " + (project.exists("closed-marker") ? "CREATED" : "absent"));
        assertThat(run.process().exitCode()).as(run.describe()).isZero();
        assertThat(result).as("tool result for the refused call: " + run.describe())
                .hasValueSatisfying(o -> assertThat(o).contains("refusing (WARDEN_FAIL_MODE=closed)"));
        assertThat(project.exists("closed-marker")).as("the refused command ran").isFalse();
        row.pass();
    }

    /**
     * A prompt refused on chat.message: the host sends nothing to the model and ends the run with
     * "Unexpected server error" (exit 1), so the bridge says Warden's reason on stderr.
     */
    @Test
    @Order(5)
    void blockingConcernOnThePrompt_refusesIt_beforeAnyModelCall(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = summary.row(host, "prompt refused on chat.message",
                "no model request; run ends (exit 1); stderr carries Warden's reason");
        E2eProject project = project(dir, row);
        project.manifest(manifest("""
                no-secrets:
                  script: builtin:deny-pattern
                  posture: blocking
                  patterns:
                    - match: 'AKIA[0-9A-Z]{16}'
                      reason: "PROMPT-4c2: the prompt contains an AWS access key"
                """, "user_prompt_submit: [no-secrets]\n"));
        install(project);

        Session run = session(project, "deploy with AKIAABCDEFGHIJKLMNOP", Map.of(), ModelScript.of(Turn.text("FINAL: done")));

        int main = run.server().steps().size();
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("exit " + run.process().exitCode() + "; model requests " + main + "; stderr "
                + grep(run.process().stderr(), "PROMPT-4c2"));
        assertThat(main).as("requests of the conversation: " + run.describe()).isZero();
        assertThat(run.process().stderr()).contains("[warden] refused chat.message: [warden] PROMPT-4c2");
        assertThat(run.process().stdout()).doesNotContain("FINAL: done");
        row.pass();
    }

    /**
     * The committed bridge on a machine without Warden (PATH without it): today's form, which runs
     * another machine's launcher path, and the portable one a project install writes, which finds
     * {@code warden} on PATH and, missing, throws the install line at the tool call.
     */
    @Test
    @Order(6)
    void committedBridge_wardenMissing_oldPathFailsOpen_portableRefusesWithTheInstallLine(@TempDir Path dir)
            throws Exception {
        E2eSummary.Row row = summary.row(host, "committed bridge, no warden on PATH (old path form vs portable)",
                "old: bash runs (fail-open note); portable: tool result carries the install line; command not run");
        E2eProject project = project(dir, row);
        project.manifest(manifest("""
                no-denied-marker:
                  script: builtin:deny-pattern
                  posture: blocking
                  tools: [bash]
                  patterns:
                    - match: 'touch denied-marker'
                      reason: "DENY-p6: denied-marker is off limits"
                """, "pre_tool_use: [no-denied-marker]\n"));
        install(project);
        Path bridge = project.root().resolve(flavor.pluginDir() + "/warden-bridge.js");
        byte[] portable = java.nio.file.Files.readAllBytes(bridge);
        assertThat(new String(portable, java.nio.charset.StandardCharsets.UTF_8)).contains("const LAUNCHER = null;")
                .doesNotContain(suite.wardenLauncher().toString());
        Map<String, String> noWarden = Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));

        // today's form, as a teammate's clone had it: another machine's launcher path
        dev.agentwarden.install.Installer plugin = dev.agentwarden.install.HostSetups.byId(flavor.hostId())
                .installer(dev.agentwarden.host.Host.Scope.PROJECT);
        List<dev.agentwarden.install.Installer.Binding> bound = new ArrayList<>();
        for (String event : plugin.installedEvents(portable)) {
            bound.add(new dev.agentwarden.install.Installer.Binding(event, null));
        }
        java.nio.file.Files.write(bridge, plugin.install(new byte[0], HookLauncher.plain("/home/alice/src/warden/bin/warden"), bound));
        Session old = session(project, "touch the marker", noWarden, ModelScript.of(
                Turn.tool("old", "bash", Map.of("command", "touch denied-marker", "description", "touch")),
                Turn.text("FINAL: done")));
        boolean oldRan = project.exists("denied-marker");
        java.nio.file.Files.deleteIfExists(project.root().resolve("denied-marker"));

        java.nio.file.Files.write(bridge, portable);
        Session run = session(project, "touch the marker", noWarden, ModelScript.of(
                Turn.tool("missing", "bash", Map.of("command", "touch denied-marker", "description", "touch")),
                Turn.text("FINAL: done")));

        Optional<String> result = run.toolResult("missing");
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("old: marker " + (oldRan ? "CREATED" : "absent") + ", stderr " + grep(old.process().stderr(), "warden")
                + "; portable: result=" + result.orElse("(none)") + ", marker "
                + (project.exists("denied-marker") ? "CREATED" : "absent"));
        assertThat(oldRan).as("today's form on a machine without that path lets the tool run: " + old.describe()).isTrue();
        assertThat(old.process().stderr()).contains("allowing (fail-open");
        assertThat(result).as("tool result for the refused call: " + run.describe())
                .hasValueSatisfying(o -> assertThat(o).contains("warden is not installed on this machine")
                        .contains("npm install -g agent-warden"));
        assertThat(project.exists("denied-marker")).as("the refused command ran").isFalse();
        row.pass();
    }

    private static final String DENY_OPEN_MARKER = """
            no-open-marker:
              script: builtin:deny-pattern
              posture: blocking
              tools: [bash]
              patterns:
                - match: 'touch never-marker'
                  reason: "never matches"
            """;

    // ---- Helpers ------------------------------------------------------------------------------

    /** What one {@code <host> run} did: its process, and the requests it sent to the scripted model. */
    record Session(Command.Result process, ScriptedModelServer server) implements HostRun {
        /** The text of the first {@code tool_result} the host sent for a scripted call. */
        Optional<String> toolResult(String scriptedId) {
            String id = AnthropicMessagesApi.toolUseId(scriptedId);
            for (ScriptedModelServer.Exchange e : server.steps()) {
                for (Object m : AnthropicMessagesApi.list(e.body().get("messages"))) {
                    for (Object b : AnthropicMessagesApi.list(map(m).get("content"))) {
                        Map<String, Object> block = map(b);
                        if ("tool_result".equals(block.get("type")) && id.equals(block.get("tool_use_id"))) {
                            Object content = block.get("content");
                            return Optional.of(content instanceof String s ? s : AnthropicMessagesApi.userText(content));
                        }
                    }
                }
            }
            return Optional.empty();
        }

        /** The user text of the first conversation request (not a side query such as the title). */
        String firstPromptText() {
            for (ScriptedModelServer.Exchange e : server.steps()) {
                if (!"side".equals(e.route())) {
                    StringBuilder text = new StringBuilder();
                    for (Object m : AnthropicMessagesApi.list(e.body().get("messages"))) {
                        if ("user".equals(map(m).get("role"))) {
                            text.append(AnthropicMessagesApi.userText(map(m).get("content")));
                        }
                    }
                    return text.toString();
                }
            }
            return "";
        }
    }

    private E2eProject project(Path dir, E2eSummary.Row... rows) throws IOException {
        return E2eProject.forScenario(dir, unavailable, rows);
    }

    private void install(E2eProject project) throws IOException {
        opencode.seed(project);
        suite.install(project, opencode.baseEnv(), flavor.hostId(), flavor.pluginDir() + "/warden-bridge.js");
    }

    private Session session(E2eProject project, String prompt, Map<String, String> env, ModelScript script)
            throws IOException {
        try (ScriptedModelServer server = ScriptedModelServer.start(new AnthropicMessagesApi("task", false), script)) {
            return new Session(opencode.run(project, server, prompt, env), server);
        }
    }

    /** A project manifest: the given concerns and the host's chains; its native events are Warden's defaults. */
    private String manifest(String concerns, String chains) {
        return "schema_version: 1\nconcerns:\n" + concerns.indent(2) + "platforms:\n  " + flavor.hostId() + ":\n"
                + chains.indent(4);
    }

    private static String grep(String text, String word) {
        StringBuilder out = new StringBuilder();
        for (String line : text.split("\n")) {
            if (line.contains(word)) {
                out.append(out.length() == 0 ? "" : " / ").append(line.strip());
            }
        }
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }
}
