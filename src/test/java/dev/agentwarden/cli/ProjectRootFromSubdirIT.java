package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.export.OtlpReceiver;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.json.Json;
import dev.agentwarden.testing.WardenProcess;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * Issue 25 item 3 through the packaged jar: every command of the CLI registry that acts on a
 * project, run from {@code proj/src/deep}, acts on {@code proj} (docs/project-root.md); a hook
 * event of every host in the host registry, sent from the subdirectory, runs the project's
 * manifest; and nothing Warden writes appears below the root. One scratch project for the class:
 * the host events run first and leave the decisions, ledger and spawn-guard lines the read
 * commands then find at the root.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ProjectRootFromSubdirIT {
    /** What the project's rule matches: nothing in the default manifest refuses it. */
    private static final String TOKEN = "PROJECT-TOKEN-42";
    private static final String REASON = "DENY-root: the project's own rule";

    /** Each host's golden case (src/test/resources/golden/HOST/CASE.json) whose pre-tool event a blocking concern denies. */
    private static final Map<String, String> DENY_CASE = Map.ofEntries(
            Map.entry("claude", "PreToolUse-block-permissionDeny"),
            Map.entry("cowork", "PreToolUse-block-permissionDeny"),
            Map.entry("codex", "PreToolUse-block-permissionDeny"),
            Map.entry("copilot", "preToolUse-block-permissionDeny"),
            Map.entry("cline", "PreToolUse-block-cancelsTask"),
            Map.entry("gemini", "BeforeTool-block-decisionDeny"),
            Map.entry("qwen", "PreToolUse-block-permissionDeny"),
            Map.entry("cursor", "beforeShellExecution-block-permissionDeny-fromDocs"),
            Map.entry("windsurf", "pre_run_command-block-exit2-fromDocs"),
            Map.entry("augment", "PreToolUse-block-permissionDeny-fromShippedCode"),
            Map.entry("opencode", "tool.execute.before-block-deny"),
            Map.entry("kilo", "tool.execute.before-block-deny"),
            Map.entry("droid", "PreToolUse-block-permissionDeny"));

    /** Commands of the registry that act on no project, and why. */
    private static final Map<String, String> NOT_PROJECT_SCOPED = Map.ofEntries(
            Map.entry("version", "prints the build"),
            Map.entry("help", "prints help"),
            Map.entry("demo", "replays recorded sessions in a temporary project of its own"),
            Map.entry("canonicalize", "stdin to stdout"),
            Map.entry("train-archive", "the user's Warden cache"),
            Map.entry("serve", "a transport: each request is a dispatch (the host rows)"),
            Map.entry("resident start", "the user's resident server: each request resolves its root as dispatch does"),
            Map.entry("resident status", "the user's resident server"),
            Map.entry("resident stop", "the user's resident server"),
            Map.entry("policy sign", "a bundle directory named on the command line"),
            Map.entry("policy pull", "the machine's managed policy (/etc/agent-warden)"),
            Map.entry("policy status", "the machine's managed policy (/etc/agent-warden)"),
            Map.entry("release keygen", "files named on the command line"),
            Map.entry("release root init", "files named on the command line"),
            Map.entry("release root rotate", "files named on the command line"),
            Map.entry("release add", "files named on the command line"),
            Map.entry("release sign", "files named on the command line"),
            Map.entry("release verify", "files named on the command line"),
            Map.entry("integrity evaluate", "the evidence file named by --evidence"),
            Map.entry("integrity fixtures", "a temporary or --work-dir directory"),
            Map.entry("inventory diff", "two snapshot files named on the command line"),
            Map.entry("telemetry pin", "the file named by --out"));

    /** Project-scoped commands outside the table: run by another test of this class, or not run, and why. */
    private static final Map<String, String> NOT_RUN_HERE = Map.ofEntries(
            Map.entry("dispatch", "run for every host by hostEventFromTheSubdirectory"),
            Map.entry("dashboard", "a foreground server: run by dashboardFromTheSubdirectory, which stops it"));

    @TempDir
    static Path tmp;

    private Path root;
    private Path deep;
    private Map<String, String> env;
    private OtlpReceiver receiver;

    @BeforeAll
    void project() throws Exception {
        root = Files.createDirectories(tmp.resolve("proj")).toRealPath();
        Files.createDirectories(root.resolve(".git"));
        deep = Files.createDirectories(root.resolve("src/deep"));
        Path home = Files.createDirectories(tmp.resolve("home"));
        env = new HashMap<>();
        env.put("HOME", home.toString());
        env.put("XDG_STATE_HOME", home.resolve(".local/state").toString());
        env.put("WARDEN_CACHE_DIR", tmp.resolve("cache").toString());
        env.put("WARDEN_RESIDENT", "off");

        // no .warden/ anywhere yet: init from the subdirectory initialises the git root
        WardenProcess.Result init = warden("init", "--no-trust");
        assertThat(init.exitCode()).as(init.stdout() + init.stderr()).isZero();
        assertThat(root.resolve(".warden/manifest.yaml")).isRegularFile();
        assertNothingBelowTheRoot();

        Files.writeString(root.resolve(".warden/manifest.yaml"), manifest());
        Files.createDirectories(root.resolve(".warden/tests"));
        Files.writeString(root.resolve(".warden/tests/token.yaml"), """
                cases:
                  - name: the project's rule refuses the token
                    host: claude
                    event: PreToolUse
                    payload: {tool_name: Bash, tool_input: {command: "echo %s"}}
                    verdict: block
                    reason_contains: DENY-root
                """.formatted(TOKEN));
        Files.createDirectories(root.resolve(".github/agents"));
        Files.writeString(root.resolve(".github/agents/x.agent.md"), "# agent x\n");
        Files.writeString(tmp.resolve("session.jsonl"), "{\"native_event\":\"PreToolUse\",\"payload\":{\"hook_event_name\":"
                + "\"PreToolUse\",\"session_id\":\"r1\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"echo " + TOKEN
                + "\"}}}\n");
        WardenProcess.Result trust = warden("trust", "--yes");
        assertThat(trust.exitCode()).as(trust.stdout() + trust.stderr()).isZero();
        feedTheReadCommands();
        WardenProcess.Result pin = warden("telemetry", "pin", "--artifact", tmp.resolve("session.jsonl").toString(),
                "--client-id", "claude-code", "--client-version", "2.1.0", "--model", "m", "--tokenizer", "t",
                "--condition", "fresh", "--out", tmp.resolve("pin.json").toString());
        assertThat(pin.exitCode()).as(pin.stdout() + pin.stderr()).isZero();
        receiver = new OtlpReceiver();
    }

    @AfterAll
    void stopReceiver() throws Exception {
        if (receiver != null) {
            receiver.close();
        }
    }

    /** A blocking rule on every host's pre-tool event; claude's chains also feed the ledger, the spawn guard and the turn records. */
    private static String manifest() {
        StringBuilder m = new StringBuilder("""
                schema_version: 1
                concerns:
                  project-token:
                    script: builtin:deny-pattern
                    posture: blocking
                    patterns:
                      - match: '%s'
                        reason: "%s"
                  subagent-ledger:
                    script: builtin:subagent-ledger
                    posture: shadow
                  turns:
                    script: builtin:inventory-turns
                    posture: shadow
                  spawn-guard:
                    script: builtin:spawn-guard
                    posture: shadow
                    tools: [Agent, Task]
                platforms:
                """.formatted(TOKEN, REASON));
        for (String id : Hosts.ids()) {
            m.append("  ").append(id).append(id.equals("claude")
                    ? ": {pre_tool_use: [project-token, spawn-guard], subagent_start: [subagent-ledger],"
                            + " user_prompt_submit: [turns]}\n"
                    : ": {pre_tool_use: [project-token]}\n");
        }
        return m.toString();
    }

    // ---- the registry ----

    @Test
    @Order(0)
    void everyCommandOfTheRegistry_isRunHere_orSaysWhyNot() throws Exception {
        Set<String> leaves = new TreeSet<>();
        leaves(WardenCli.commandLine(Map.of()), "", leaves);
        Set<String> listed = new TreeSet<>(NOT_PROJECT_SCOPED.keySet());
        listed.addAll(NOT_RUN_HERE.keySet());
        for (CommandRun run : commandRuns()) {
            listed.add(run.path());
        }
        assertThat(listed).as("a command added to WardenCli needs a row in commandRuns() or a stated reason")
                .containsAll(leaves);
        Set<String> stale = new TreeSet<>(listed);
        stale.removeAll(leaves);
        stale.remove("log"); // log has a subcommand (prune) and is itself a command
        assertThat(stale).as("rows for commands the registry no longer has").isEmpty();
    }

    private static void leaves(CommandLine cmd, String prefix, Set<String> out) {
        for (Map.Entry<String, CommandLine> e : cmd.getSubcommands().entrySet()) {
            if (!e.getValue().getCommandName().equals(e.getKey())) {
                continue; // an alias
            }
            String path = prefix.isEmpty() ? e.getKey() : prefix + " " + e.getKey();
            if (e.getValue().getSubcommands().isEmpty()) {
                out.add(path);
            } else {
                leaves(e.getValue(), path, out);
            }
        }
    }

    // ---- every host ----

    /** One hook event per host from the subdirectory without its variable, and once more with it where it has one. */
    Stream<Named<HostRun>> hostRuns() {
        List<Named<HostRun>> runs = new ArrayList<>();
        for (Host host : Hosts.ALL) {
            assertThat(DENY_CASE).as("a golden deny case for host %s", host.id()).containsKey(host.id());
            runs.add(Named.of(host.id() + " (cwd " + "src/deep)", new HostRun(host.id(), null)));
            if (!host.projectDirVariables().isEmpty()) {
                String variable = host.projectDirVariables().get(0);
                runs.add(Named.of(host.id() + " (cwd src/deep, " + variable + ")", new HostRun(host.id(), variable)));
            }
        }
        return runs.stream();
    }

    record HostRun(String host, String variable) {
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostRuns")
    @Order(1)
    void hostEventFromTheSubdirectory_runsTheProjectsRule_inTheHostsDeny(HostRun run) throws Exception {
        Path golden = goldenRoot().resolve(run.host());
        String name = DENY_CASE.get(run.host());
        Map<String, Object> golden1 = Json.parseObject(Files.readString(golden.resolve(name + ".json")));
        Map<String, Object> expected = Json.parseObject(Files.readString(golden.resolve(name + ".expected.json")));
        String payload = Json.write(golden1.get("payload"))
                .replace("/home/dev/proj", deep.toString())
                .replace("--no-verify", TOKEN)
                .replace("rm -rf /", "echo " + TOKEN);
        assertThat(payload).contains(TOKEN);
        Map<String, String> hookEnv = new HashMap<>(env);
        if (run.variable() != null) {
            hookEnv.put(run.variable(), root.toString());
        }
        List<String> argv = new ArrayList<>(List.of("dispatch", "--host", run.host()));
        if (golden1.get("native_event") instanceof String nativeEvent) {
            argv.add("--native-event");
            argv.add(nativeEvent);
        }
        WardenProcess.Result hook = WardenProcess.run(jvm(), argv, hookEnv,
                payload.getBytes(StandardCharsets.UTF_8), deep);

        String seen = hook.stdout() + hook.stderr();
        assertThat(seen).as("the project's rule fired").contains(REASON);
        assertThat(hook.exitCode()).as(seen).isEqualTo(((Number) expected.get("exit_code")).intValue());
        if (expected.get("stdout") != null) {
            assertThat(reasonsMarked(Json.parse(hook.stdout()), REASON)).as("the host's deny, as the golden one: " + seen)
                    .isEqualTo(reasonsMarked(expected.get("stdout"), "[warden]"));
        } else {
            assertThat(hook.stdout()).as(seen).isEmpty();
        }
        assertNothingBelowTheRoot();
    }

    /** {@code value} with every string holding {@code reason} replaced by one mark: the protocol's form, not its words. */
    private static Object reasonsMarked(Object value, String reason) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new TreeMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), reasonsMarked(v, reason)));
            return out;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(v -> reasonsMarked(v, reason)).toList();
        }
        return value instanceof String s && s.contains(reason) ? "<reason>" : value;
    }

    // ---- every command ----

    /** A command line run from the subdirectory and what shows it acted on the root. */
    record CommandRun(String path, List<String> args, Check check) {
        @Override
        public String toString() {
            return String.join(" ", args);
        }
    }

    @FunctionalInterface
    interface Check {
        void verify(WardenProcess.Result result, String seen) throws Exception;
    }

    /** In order: the read commands find what the host events (run before) wrote at the root; prune goes last. */
    List<CommandRun> commandRuns() throws Exception {
        Path manifest = root.resolve(".warden/manifest.yaml");
        Path state = root.resolve(".warden/state");
        List<CommandRun> runs = new ArrayList<>();
        runs.add(new CommandRun("init", List.of("init"), (r, seen) -> {
            assertThat(r.exitCode()).isNotZero();
            assertThat(seen).contains(root.resolve(".warden").toString()).contains("exists; nothing written");
        }));
        runs.add(new CommandRun("trust", List.of("trust", "--yes"), (r, seen) ->
                assertThat(seen).contains(root.toString())));
        runs.add(new CommandRun("manifest lint", List.of("manifest", "lint"), (r, seen) ->
                assertThat(seen).contains(manifest + ": ok")));
        Path keys = Files.createDirectories(tmp.resolve("team-keys"));
        Path key = Files.exists(keys.resolve("team.key.pem")) ? keys.resolve("team.key.pem")
                : dev.agentwarden.release.KeyFiles.generate(keys, "team").privateKeyFile();
        runs.add(new CommandRun("manifest sign", List.of("manifest", "sign", "--key", key.toString()), (r, seen) -> {
            assertThat(r.exitCode()).as(seen).isZero();
            assertThat(root.resolve(".warden/manifest.yaml.sig")).isRegularFile();
        }));
        runs.add(new CommandRun("manifest show", List.of("manifest", "show", "--host", "claude", "--event", "PreToolUse"),
                (r, seen) -> assertThat(seen).contains("project-token")));
        runs.add(new CommandRun("test", List.of("test"), (r, seen) -> assertThat(seen).contains("1 passed, 0 failed")));
        runs.add(new CommandRun("replay", List.of("replay", tmp.resolve("session.jsonl").toString()), (r, seen) ->
                assertThat(seen).contains("in force: " + manifest).contains(REASON)));
        runs.add(new CommandRun("install", List.of("install", "--host", "claude", "--no-train"), (r, seen) -> {
            assertThat(r.exitCode()).isZero();
            assertThat(root.resolve(".claude/settings.json")).isRegularFile();
        }));
        runs.add(new CommandRun("doctor", List.of("doctor", "--host", "claude", "--scope", "project"), (r, seen) ->
                assertThat(r.stdout()).startsWith("warden doctor: " + root)));
        runs.add(new CommandRun("uninstall", List.of("uninstall", "--host", "claude"), (r, seen) -> {
            assertThat(r.exitCode()).isZero();
            assertThat(seen).contains(root.resolve(".claude/settings.json").toString());
        }));
        runs.add(new CommandRun("log", List.of("log"), (r, seen) -> assertThat(seen).contains("project-token=block")));
        runs.add(new CommandRun("report", List.of("report"), (r, seen) ->
                assertThat(seen).contains("1 project(s)").contains(TOKEN)));
        runs.add(new CommandRun("ledger stats", List.of("ledger", "stats"), (r, seen) ->
                assertThat(seen).contains("ledger: " + state.resolve("ledger")).doesNotContain("(0 chain lines)")));
        runs.add(new CommandRun("ledger verify", List.of("ledger", "verify"), (r, seen) ->
                assertThat(seen).contains("ledger: " + state.resolve("ledger")).contains("intact:")));
        runs.add(new CommandRun("ledger anchor", List.of("ledger", "anchor"), (r, seen) -> {
            assertThat(r.exitCode()).isZero();
            assertThat(seen).startsWith("anchored ");
        }));
        runs.add(new CommandRun("guard derive", List.of("guard", "derive"), (r, seen) ->
                assertThat(seen).contains("spawn-guard observations: 1")));
        String evidence = state.resolve("integrity/evidence.jsonl").toString();
        runs.add(new CommandRun("integrity check", List.of("integrity", "check", "--agent-file",
                "../../.github/agents/x.agent.md", "--agent-version", "1", "--client-id", "copilot-cli",
                "--client-version", "1.0", "--not-selected"), (r, seen) ->
                assertThat(seen).contains("evidence " + evidence).contains("outcome: SKIP")));
        runs.add(new CommandRun("launch", List.of("launch", "--agent-id", "x", "--client-id", "copilot-cli",
                "--client-version", "1.0", "--", "true"), (r, seen) ->
                assertThat(seen).contains(root.resolve(".github/agents/x.agent.md").toString())
                        .contains("evidence " + evidence)));
        runs.add(new CommandRun("integrity stats", List.of("integrity", "stats"), (r, seen) ->
                assertThat(seen).contains("evidence: " + evidence + "  sessions: 2")));
        Path release = goldenRoot().resolveSibling("release/v1");
        runs.add(new CommandRun("release lookup", List.of("release", "lookup", "--root", release.resolve("root.json")
                .toString(), "--manifest", release.resolve("manifest.json").toString(), "--at", "2030-06-01T00:00:00Z",
                "--agent-version", "0.13.1", "--client-id", "copilot-cli", "--client-version", "1.0.3"), (r, seen) -> {
            assertThat(seen).contains("status: FOUND");
            assertThat(Path.of(env.get("XDG_STATE_HOME"), "agent-warden/release", Sha256.hex(
                    root.toString().getBytes(StandardCharsets.UTF_8)) + ".json")).as("the floor kept for the root").isRegularFile();
        }));
        Path prereg = tmp.resolve("prereg.yaml");
        int[] stored = new int[1];
        runs.add(new CommandRun("inventory snapshot", List.of("inventory", "snapshot", "--host", "claude"), (r, seen) -> {
            assertThat(seen).contains("stored " + state.resolve("inventory"));
            stored[0] = snapshots(state).size();
            // the preregistration the preflight row reads: this inventory as the baseline
            Files.writeString(prereg, "baseline: " + seen.split(" ", 3)[1] + "\n");
        }));
        runs.add(new CommandRun("inventory preflight", List.of("inventory", "preflight", "--prereg", prereg.toString(),
                "--host", "claude"), (r, seen) -> {
            assertThat(seen).startsWith("inventory_drift NONE");
            assertThat(snapshots(state)).as("its snapshot stored beside the others").hasSize(stored[0] + 1);
        }));
        runs.add(new CommandRun("telemetry join", List.of("telemetry", "join", "--pin", tmp.resolve("pin.json").toString(),
                "--turn-records"), (r, seen) ->
                assertThat(seen).as("the transcript named by the root's turn record")
                        .contains("\"sources\":[\"" + tmp.resolve("transcript.jsonl") + "\"]")));
        runs.add(new CommandRun("export", List.of("export", "--otlp", receiver.base()), (r, seen) -> {
            assertThat(r.exitCode()).isZero();
            assertThat(seen).startsWith("exported ").doesNotStartWith("exported 0 ");
            assertThat(receiver.requests()).isNotEmpty();
        }));
        runs.add(new CommandRun("log prune", List.of("log", "prune", "--before", "2100-01-01"), (r, seen) -> {
            assertThat(r.exitCode()).isZero();
            try (Stream<Path> left = Files.list(state.resolve("decisions"))) {
                assertThat(left.filter(p -> p.toString().endsWith(".jsonl")).toList())
                        .as("the root's segments pruned").isEmpty();
            }
        }));
        return runs;
    }

    private static List<Path> snapshots(Path state) throws Exception {
        try (Stream<Path> files = Files.list(state.resolve("inventory"))) {
            return files.filter(p -> p.toString().endsWith(".json")).toList();
        }
    }

    Stream<Named<CommandRun>> commandRunsNamed() throws Exception {
        return commandRuns().stream().map(run -> Named.of(run.toString(), run));
    }

    /** The dashboard, started from the subdirectory, shows the root's decisions; stopped once its page is read. */
    @Test
    @Order(2)
    void dashboardFromTheSubdirectory_showsTheRootsDecisions() throws Exception {
        List<String> command = new ArrayList<>(List.of(WardenProcess.java().toString()));
        command.addAll(WardenProcess.flagsFor(List.of("dashboard")));
        command.addAll(jvm());
        command.addAll(List.of("-jar", WardenProcess.jar().toString(), "dashboard"));
        ProcessBuilder pb = new ProcessBuilder(command).directory(deep.toFile()).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        pb.environment().putAll(env);
        Process dashboard = pb.start();
        Thread deadline = new Thread(() -> { // a dashboard that never prints its URL is stopped, ending the read
            try {
                if (!dashboard.waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    dashboard.destroyForcibly();
                }
            } catch (InterruptedException e) {
                // the test is done with it
            }
        });
        deadline.setDaemon(true);
        deadline.start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(dashboard.getInputStream(), StandardCharsets.UTF_8))) {
            List<String> lines = new ArrayList<>();
            String url = null;
            for (String line; url == null && (line = out.readLine()) != null; ) { // ends when the dashboard exits
                lines.add(line);
                url = line.startsWith("open ") ? line.substring("open ".length()) : null;
            }
            assertThat(url).as("the dashboard's URL in %s", lines).isNotNull();
            HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
                    .connectTimeout(Duration.ofSeconds(WardenProcess.TIMEOUT_SECONDS)).build();
            HttpResponse<Void> entry = http.send(HttpRequest.newBuilder(URI.create(url))
                    .timeout(Duration.ofSeconds(WardenProcess.TIMEOUT_SECONDS)).build(), HttpResponse.BodyHandlers.discarding());
            String cookie = entry.headers().firstValue("set-cookie").orElseThrow().split(";", 2)[0];
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(url).resolve("/"))
                    .header("Cookie", cookie).timeout(Duration.ofSeconds(WardenProcess.TIMEOUT_SECONDS)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(lines).contains("warden dashboard: 1 project(s)");
            assertThat(page.body()).contains(root.toString()).contains(TOKEN).doesNotContain(deep.toString());
        } finally {
            deadline.interrupt();
            dashboard.destroy();
            if (!dashboard.waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                dashboard.destroyForcibly();
            }
        }
        assertNothingBelowTheRoot();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commandRunsNamed")
    @Order(3)
    void commandFromTheSubdirectory_actsOnTheRoot(CommandRun run) throws Exception {
        WardenProcess.Result result = warden(run.args().toArray(String[]::new));
        String seen = result.stdout() + result.stderr();
        run.check().verify(result, seen);
        assertThat(seen).as("names no path in the subdirectory").doesNotContain(deep.toString());
        assertNothingBelowTheRoot();
    }

    /** A subagent start, a Task spawn and a prompt from the subdirectory, for the ledger, guard and telemetry rows. */
    private void feedTheReadCommands() throws Exception {
        Path transcript = Files.writeString(tmp.resolve("transcript.jsonl"), "{\"type\":\"user\"}\n");
        String start = "{\"hook_event_name\":\"SubagentStart\",\"session_id\":\"s1\",\"cwd\":\"" + deep
                + "\",\"agent_id\":\"a1\",\"agent_type\":\"general-purpose\"}";
        String spawn = "{\"hook_event_name\":\"PreToolUse\",\"session_id\":\"s1\",\"cwd\":\"" + deep
                + "\",\"tool_name\":\"Task\",\"tool_input\":{\"description\":\"d\",\"prompt\":\"p\","
                + "\"subagent_type\":\"general-purpose\"}}";
        String prompt = "{\"hook_event_name\":\"UserPromptSubmit\",\"session_id\":\"s2\",\"cwd\":\"" + deep
                + "\",\"prompt\":\"hi\",\"transcript_path\":\"" + transcript + "\"}";
        for (String[] event : new String[][] {{"SubagentStart", start}, {"PreToolUse", spawn}, {"UserPromptSubmit", prompt}}) {
            WardenProcess.Result r = WardenProcess.run(jvm(), List.of("dispatch", "--host", "claude", "--native-event",
                    event[0]), env, event[1].getBytes(StandardCharsets.UTF_8), deep);
            assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isZero();
        }
    }

    /**
     * launch finds the agent from the git root, as Copilot CLI does, but keeps its evidence in the
     * project every other command resolves: a monorepo package's own {@code .warden/}.
     */
    @Test
    @Order(4)
    void launchInAMonorepoPackage_keepsItsEvidenceInThePackagesWarden() throws Exception {
        Path mono = Files.createDirectories(tmp.resolve("mono")).toRealPath();
        Files.createDirectories(mono.resolve(".git"));
        Files.createDirectories(mono.resolve(".github/agents"));
        Files.writeString(mono.resolve(".github/agents/x.agent.md"), "# agent x\n");
        Path pkg = Files.createDirectories(mono.resolve("pkg/.warden")).getParent();
        Path src = Files.createDirectories(pkg.resolve("src"));

        WardenProcess.Result launch = WardenProcess.run(jvm(), List.of("launch", "--agent-id", "x", "--client-id",
                "copilot-cli", "--client-version", "1.0", "--", "true"), env, new byte[0], src);

        assertThat(launch.stderr()).as(launch.stdout() + launch.stderr())
                .contains(mono.resolve(".github/agents/x.agent.md").toString())
                .contains("evidence " + pkg.resolve(".warden/state/integrity/evidence.jsonl"));
        assertThat(mono.resolve(".warden")).doesNotExist();
        assertThat(src.resolve(".warden")).doesNotExist();
    }

    // ---- shared ----

    /** Nothing at all below the root but the directories the fixture made: no {@code .warden/}, no host files. */
    private void assertNothingBelowTheRoot() throws Exception {
        try (Stream<Path> below = Files.walk(root.resolve("src"))) {
            assertThat(below.map(p -> root.relativize(p).toString()).toList())
                    .as("nothing Warden writes below the root").containsExactlyInAnyOrder("src", "src/deep");
        }
    }

    private WardenProcess.Result warden(String... args) throws Exception {
        return WardenProcess.run(jvm(), List.of(args), env, new byte[0], deep);
    }

    private static List<String> jvm() {
        return List.of("-Dwarden.home=" + WardenProcess.home().toAbsolutePath());
    }

    private static Path goldenRoot() throws URISyntaxException {
        return Path.of(ProjectRootFromSubdirIT.class.getResource("/golden").toURI());
    }
}
