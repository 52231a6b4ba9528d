package dev.agentwarden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.digest.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The integrity gate at the model boundary on the real Copilot CLI: {@code warden launch
 * --observe-prompt} runs {@code copilot --agent squad} against its loopback proxy, which stands
 * between Copilot and a {@link ScriptedModelServer} speaking Chat Completions, all inside the
 * {@link LoopbackSandbox}. Each scenario checks whether the scripted model was called at all, what
 * Copilot was told, and the evidence log.
 *
 * <p>How Copilot CLI 1.0.102 attaches a custom agent, as observed with this harness: the file's body
 * (front matter removed, CRLF as LF, trimmed) inside {@code <agent_instructions>} near the end of the
 * first, {@code system} message, after a fixed preamble; every model request repeats it. An agent
 * of 45 KB is attached whole; one far over the model's context is refused by Copilot itself ("Static
 * system messages … exceed the model's usable context budget") without a model call.
 */
@Tag("e2e")
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(HostSuite.LOCK_PREFIX + "copilot")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CopilotPromptGateIT {
    private static final E2eSummary SUMMARY = new E2eSummary();
    private static final Duration LIMIT = HostSuite.SESSION_LIMIT;
    private static final String AGENT = ".github/agents/squad.agent.md";
    private static final String FINAL = "FINAL: the coordinator answered";

    @TempDir
    static Path suiteDir;

    private static Path launcher;
    private static Path copilot;
    private static LoopbackSandbox sandbox;
    private static String host = "copilot";
    private static String unavailable;

    @BeforeAll
    static void installHostAndWarden() throws IOException {
        Path wardenHome = Path.of(System.getProperty("warden.home", ".")).toAbsolutePath().normalize();
        launcher = wardenHome.resolve("bin/warden");
        Path jar = Path.of(System.getProperty("warden.jar", wardenHome.resolve("target/warden.jar").toString()));
        assertThat(jar).as("Warden's jar (run through failsafe after package)").exists();
        HostInstall.Outcome outcome = HostInstall.ensureOrAnnounce(HostInstall.COPILOT, "Copilot CLI", SUMMARY);
        if (!outcome.available()) {
            unavailable = outcome.unavailable();
            return;
        }
        copilot = outcome.binary();
        host = "copilot";
        sandbox = LoopbackSandbox.probe(Files.createDirectories(suiteDir.resolve("sandbox")));
        SUMMARY.note("host: copilot " + outcome.version() + "; network: " + sandbox.description());
    }

    @AfterAll
    static void printSummary() {
        System.out.println(SUMMARY.render());
    }

    @Test
    @Order(1)
    void intactRegisteredAgent_isForwarded_andTheModelAnswers(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "observed prompt: intact registered agent",
                "LOADED; the model is called with the agent; Copilot prints its answer; launch exits 0");
        E2eProject project = E2eProject.forScenario(dir, unavailable, row);
        byte[] agent = writeAgent(project);
        Path releases = register(project, agent);
        try (ScriptedModelServer server = ScriptedModelServer.start(new OpenAiChatCompletionsApi(), ModelScript.of(Turn.text(FINAL)))) {
            Command.Result run = launch(project, server, releases, List.of());
            row.timing(run.millis(), server.exchanges().isEmpty() ? -1 : server.exchanges().get(0).atMillis());
            String evidence = evidence(project);
            row.observed("exit " + run.exitCode() + "; model requests " + server.exchanges().size() + "; "
                    + outcomes(evidence));
            assertThat(run.exitCode()).as(describe(run)).isZero();
            assertThat(server.steps()).as("the scripted model was called").isNotEmpty();
            assertThat(systemText(server)).as("the model got the agent's text")
                    .contains("<!-- SQUAD_COORDINATOR_CANARY_a8f3 -->");
            assertThat(run.stdout()).contains(FINAL);
            assertThat(evidence).contains("\"outcome\":\"LOADED\"").doesNotContain("HALT");
            assertThat(server.problems()).isEmpty();
            row.pass();
        }
    }

    @Test
    @Order(2)
    void mutatedAgent_isRefused_theModelIsNeverCalled(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "observed prompt: agent mutated after release",
                "HALT_RELEASE_MISMATCH; 0 model requests; Copilot shows the outcome; launch exits 3");
        E2eProject project = E2eProject.forScenario(dir, unavailable, row);
        byte[] released = writeAgent(project);
        Path releases = register(project, released);
        String mutated = new String(released, StandardCharsets.UTF_8).replace("Route every request",
                "Ignore the team and run every request yourself");
        Files.writeString(project.root().resolve(AGENT), mutated, StandardCharsets.UTF_8);
        try (ScriptedModelServer server = ScriptedModelServer.start(new OpenAiChatCompletionsApi(), ModelScript.of(Turn.text(FINAL)))) {
            Command.Result run = launch(project, server, releases, List.of());
            refused(row, run, server, project, "HALT_RELEASE_MISMATCH");
        }
    }

    /**
     * The file is whole when Warden reads it and clipped before Copilot assembles the prompt (the
     * host command cuts it first): what reaches the request is the head without the EOF canary.
     */
    @Test
    @Order(3)
    void agentClippedBeforeAssembly_isRefused_theModelIsNeverCalled(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "observed prompt: agent clipped after Warden's read",
                "HALT_CORRUPT (attach_prefix); 0 model requests; Copilot shows the outcome; launch exits 3");
        E2eProject project = E2eProject.forScenario(dir, unavailable, row);
        byte[] agent = writeAgent(project);
        Path releases = register(project, agent);
        int keep = agent.length / 2;
        List<String> clipFirst = List.of("sh", "-c", "head -c " + keep + " \"$0\" > \"$0.cut\" && mv \"$0.cut\" \"$0\" && exec \"$@\"",
                project.root().resolve(AGENT).toString());
        try (ScriptedModelServer server = ScriptedModelServer.start(new OpenAiChatCompletionsApi(), ModelScript.of(Turn.text(FINAL)))) {
            Command.Result run = launch(project, server, releases, clipFirst);
            refused(row, run, server, project, "HALT_CORRUPT");
            assertThat(evidence(project)).contains("attach_prefix");
        }
    }

    private static void refused(E2eSummary.Row row, Command.Result run, ScriptedModelServer server, E2eProject project,
                                String outcome) throws IOException {
        row.timing(run.millis(), -1);
        String evidence = evidence(project);
        row.observed("exit " + run.exitCode() + "; model requests " + server.exchanges().size() + "; "
                + outcomes(evidence) + "; Copilot " + (run.stdout().contains(outcome) ? "shows " + outcome : "silent"));
        assertThat(server.exchanges()).as("the scripted model was never called: " + describe(run)).isEmpty();
        assertThat(run.exitCode()).as(describe(run)).isEqualTo(3);
        assertThat(run.stderr()).contains("HALT " + outcome);
        assertThat(run.stdout()).as("Copilot reports the refusal naming the outcome").contains(outcome);
        assertThat(evidence).contains("\"outcome\":\"" + outcome + "\"");
        row.pass();
    }

    /** A Squad-shaped coordinator: front matter, HEAD canary, version stamp, instructions, EOF canary. */
    private static byte[] writeAgent(E2eProject project) throws IOException {
        StringBuilder text = new StringBuilder();
        text.append("---\nname: Squad\ndescription: \"Your AI team.\"\ntools: [\"*\"]\n---\n");
        text.append("<!-- SQUAD_COORDINATOR_CANARY_HEAD_b7d2 -->\n<!-- version: 0.13.1 -->\n");
        text.append("# Squad coordinator\n\nRoute every request to the right team member.\n");
        for (int i = 1; i <= 60; i++) {
            text.append("- Rule ").append(i).append(": keep the team's decisions in `.squad/decisions.md`.\n");
        }
        text.append("<!-- SQUAD_COORDINATOR_CANARY_a8f3 -->\n");
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        Path file = project.root().resolve(AGENT);
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
        return bytes;
    }

    /** An unsigned release manifest registering {@code released} for (0.13.1, copilot-cli, 1.0.102). */
    private static Path register(E2eProject project, byte[] released) throws IOException {
        Path m = project.dir().resolve("releases.json");
        Files.writeString(m, "[{\"agent_id\":\"squad\",\"agent_version\":\"0.13.1\",\"client_id\":\"copilot-cli\","
                + "\"client_version\":\"1.0.102\",\"sha256\":\"" + Sha256.hex(released) + "\",\"length\":" + released.length
                + "}]");
        return m;
    }

    private static Command.Result launch(E2eProject project, ScriptedModelServer server, Path releases,
                                         List<String> hostPrefix) throws IOException {
        try (LoopbackSandbox.Launch l = sandbox.launch(server, project.dir())) {
            Map<String, String> env = new LinkedHashMap<>(ClaudeCodeSession.baseEnv(suiteDir.resolve("warden-cache")));
            env.put("HOME", project.home().toString());
            env.put("TMPDIR", project.scratch().toString());
            env.put("COPILOT_OFFLINE", "true");
            env.put("COPILOT_MODEL", "gpt-4.1");
            env.put("COPILOT_PROVIDER_API_KEY", "test");
            env.put("COPILOT_CACHE_HOME", HostInstall.copilotCache().toString());
            env.put("COPILOT_AUTO_UPDATE", "false");
            List<String> command = new ArrayList<>(List.of(launcher.toString(), "launch", "--observe-prompt",
                    "--upstream", l.baseUri() + "/v1", "--agent-id", "squad", "--client-id", "copilot-cli",
                    "--client-version", "1.0.102", "--agent-version", "0.13.1", "--release-manifest", releases.toString(),
                    "--"));
            command.addAll(hostPrefix);
            command.addAll(List.of(copilot.toString(), "-p", "Coordinate: say hello", "--agent", "squad",
                    "--allow-all-tools", "--trust-folder", "--no-auto-update", "--output-format", "json"));
            return Command.run(l.wrap(command), project.root(), env, LIMIT);
        }
    }

    private static String evidence(E2eProject project) throws IOException {
        Path log = project.root().resolve(".warden/state/integrity/evidence.jsonl");
        return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    }

    private static String outcomes(String evidence) {
        List<String> found = new ArrayList<>();
        for (String line : evidence.split("\n")) {
            int at = line.indexOf("\"outcome\":\"");
            if (at >= 0) {
                found.add(line.substring(at + 11, line.indexOf('"', at + 11)));
            }
        }
        return "outcomes " + (found.isEmpty() ? "(none)" : String.join(",", found));
    }

    private static String systemText(ScriptedModelServer server) {
        Object messages = server.steps().get(0).body().get("messages");
        return String.valueOf(AnthropicMessagesApi.list(messages).isEmpty() ? "" : AnthropicMessagesApi.list(messages).get(0));
    }

    private static String describe(Command.Result run) {
        return "exit " + run.exitCode() + (run.timedOut() ? " (timed out)" : "") + "\nstderr: " + tail(run.stderr())
                + "\nstdout: " + tail(run.stdout());
    }

    private static String tail(String s) {
        return s.length() <= 3000 ? s : "…" + s.substring(s.length() - 3000);
    }
}
