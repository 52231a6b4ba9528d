package dev.agentwarden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.digest.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 * The integrity gate at the model boundary on the real Claude Code CLI: {@code warden launch
 * --observe-prompt} runs {@code claude -p … --agent squad} with {@code ANTHROPIC_BASE_URL} on its
 * loopback proxy, in front of a {@link ScriptedModelServer} speaking Anthropic Messages, inside the
 * {@link LoopbackSandbox}.
 *
 * <p>How Claude Code 2.1.197 attaches {@code --agent squad} ({@code .claude/agents/squad.md}), as
 * observed with this harness: the agent's body (front matter removed, trimmed, CRLF kept) is a
 * {@code system} block of its own, in place of the default system prompt.
 */
@Tag("e2e")
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(HostSuite.LOCK_PREFIX + "claude-code")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClaudeCodePromptGateIT {
    private static final E2eSummary SUMMARY = new E2eSummary();
    private static final String AGENT = ".claude/agents/squad.md";
    private static final String FINAL = "FINAL: the coordinator answered";

    @TempDir
    static Path suiteDir;

    private static Path launcher;
    private static ClaudeCodeSession claude;
    private static String host = "claude-code";
    private static String unavailable;

    @BeforeAll
    static void installHostAndWarden() throws IOException {
        Path wardenHome = Path.of(System.getProperty("warden.home", ".")).toAbsolutePath().normalize();
        launcher = wardenHome.resolve("bin/warden");
        HostInstall.Outcome outcome = HostInstall.ensureOrAnnounce(HostInstall.CLAUDE_CODE, "Claude Code", SUMMARY);
        if (!outcome.available()) {
            unavailable = outcome.unavailable();
            return;
        }
        host = "claude-code " + outcome.version();
        LoopbackSandbox sandbox = LoopbackSandbox.probe(Files.createDirectories(suiteDir.resolve("sandbox")));
        claude = new ClaudeCodeSession(outcome.binary(), sandbox, suiteDir.resolve("warden-cache"));
        SUMMARY.note("network: " + sandbox.description());
    }

    @AfterAll
    static void printSummary() {
        System.out.println(SUMMARY.render());
    }

    @Test
    @Order(1)
    void intactRegisteredAgent_isForwarded_andTheModelAnswers(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "observed prompt: intact registered agent",
                "LOADED; the model is called with the agent as a system block; Claude prints its answer; exit 0");
        E2eProject project = E2eProject.forScenario(dir, unavailable, row);
        byte[] agent = writeAgent(project);
        try (ScriptedModelServer server = ScriptedModelServer.start(new AnthropicMessagesApi(), ModelScript.of(Turn.text(FINAL)))) {
            ClaudeRun run = launch(project, server, register(project, agent), List.of());
            row.timing(run);
            String evidence = evidence(project);
            row.observed("exit " + run.process().exitCode() + "; model requests " + server.steps().size() + "; "
                    + (evidence.contains("\"outcome\":\"LOADED\"") ? "LOADED" : "no LOADED"));
            assertThat(run.process().exitCode()).as(run.process().stderr()).isZero();
            assertThat(server.steps()).isNotEmpty();
            assertThat(run.resultText()).contains(FINAL);
            assertThat(evidence).contains("\"outcome\":\"LOADED\"").doesNotContain("HALT");
            row.pass();
        }
    }

    @Test
    @Order(2)
    void agentClippedBeforeAssembly_isRefused_theModelIsNeverCalled(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "observed prompt: agent clipped after Warden's read",
                "HALT_CORRUPT; 0 model requests; Claude shows the outcome; launch exits 3");
        E2eProject project = E2eProject.forScenario(dir, unavailable, row);
        byte[] agent = writeAgent(project);
        Path file = project.root().resolve(AGENT);
        List<String> clipFirst = List.of("sh", "-c", "head -c " + agent.length / 2 + " \"$0\" > \"$0.cut\" && mv \"$0.cut\""
                + " \"$0\" && exec \"$@\"", file.toString());
        try (ScriptedModelServer server = ScriptedModelServer.start(new AnthropicMessagesApi(), ModelScript.of(Turn.text(FINAL)))) {
            ClaudeRun run = launch(project, server, register(project, agent), clipFirst);
            row.timing(run);
            String evidence = evidence(project);
            row.observed("exit " + run.process().exitCode() + "; model requests " + server.steps().size() + "; "
                    + (evidence.contains("\"outcome\":\"HALT_CORRUPT\"") ? "HALT_CORRUPT" : "no HALT_CORRUPT")
                    + "; Claude " + (run.process().stdout().contains("HALT_CORRUPT") ? "shows it" : "silent"));
            assertThat(server.steps()).as("the scripted model was never called").isEmpty();
            assertThat(run.process().exitCode()).as(run.process().stderr()).isEqualTo(3);
            assertThat(run.process().stdout()).contains("HALT_CORRUPT");
            assertThat(evidence).contains("\"outcome\":\"HALT_CORRUPT\"");
            row.pass();
        }
    }

    private ClaudeRun launch(E2eProject project, ScriptedModelServer server, Path releases, List<String> hostPrefix)
            throws IOException {
        List<String> inside = new ArrayList<>(List.of(launcher.toString(), "launch", "--observe-prompt",
                "--upstream", server.baseUri().toString(), "--agent-id", "squad", "--client-id", "claude-code",
                "--client-version", "2.1.197", "--agent-version", "0.13.1", "--release-manifest", releases.toString(),
                "--"));
        inside.addAll(hostPrefix);
        return claude.run(project, server, "Coordinate: say hello", java.util.Map.of(), inside, List.of("--agent", "squad"));
    }

    private static byte[] writeAgent(E2eProject project) throws IOException {
        StringBuilder text = new StringBuilder("---\nname: squad\ndescription: \"Your AI team.\"\n---\n");
        text.append("<!-- SQUAD_COORDINATOR_CANARY_HEAD_b7d2 -->\n<!-- version: 0.13.1 -->\n# Squad coordinator\n");
        for (int i = 1; i <= 40; i++) {
            text.append("- Rule ").append(i).append(": record the team's decisions.\n");
        }
        text.append("<!-- SQUAD_COORDINATOR_CANARY_a8f3 -->\n");
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        Path file = project.root().resolve(AGENT);
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
        return bytes;
    }

    private static Path register(E2eProject project, byte[] released) throws IOException {
        Path m = project.dir().resolve("releases.json");
        Files.writeString(m, "[{\"agent_id\":\"squad\",\"agent_version\":\"0.13.1\",\"client_id\":\"claude-code\","
                + "\"client_version\":\"2.1.197\",\"sha256\":\"" + Sha256.hex(released) + "\"}]");
        return m;
    }

    private static String evidence(E2eProject project) throws IOException {
        Path log = project.root().resolve(".warden/state/integrity/evidence.jsonl");
        return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    }
}
