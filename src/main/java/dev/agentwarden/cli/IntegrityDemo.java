package dev.agentwarden.cli;

import dev.agentwarden.integrity.fixture.AcceptanceFixtures;
import dev.agentwarden.integrity.GateVerdict;
import dev.agentwarden.release.JsonFileReleaseStore;
import dev.agentwarden.release.ReleaseKey;
import dev.agentwarden.integrity.fixture.SquadArtifacts;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code warden demo} section for the integrity gate: the six fixtures of docs/integrity-gate.md, then the gate where
 * it runs for real — Claude Code attach mode through {@code bin/warden dispatch}, and
 * {@code bin/warden launch} in front of a host command — and the resulting stats.
 */
final class IntegrityDemo implements DemoSection {

    @Override
    public String title() {
        return "Pre-ingestion integrity gate (docs/integrity-gate.md): six acceptance fixtures, Claude attach mode, warden launch";
    }

    @Override
    public void run(DemoEnv env) throws Exception {
        PrintWriter out = env.out();
        Path work = env.workDir();
        List<AcceptanceFixtures.Run> runs = AcceptanceFixtures.run(work.resolve("fixtures"), Clock.systemUTC());
        out.println("Fixtures (generated coordinator files, a release manifest, the gate API, a replay of the evidence log):");
        for (AcceptanceFixtures.Run r : runs) {
            GateVerdict v = r.verdict();
            out.printf("  %d. %-34s %-22s %s%n", r.fixture().number(), r.fixture().title(), v.outcome(),
                    r.passed() ? "PASS" : "FAIL " + r.failures());
            out.println("     " + String.join(" -> ", v.steps()));
            out.println("     source_sha " + shortSha(v.sourceSha()) + "  attached_sha " + shortSha(v.attachedSha()));
        }
        if (!runs.stream().allMatch(AcceptanceFixtures.Run::passed)) {
            throw new IllegalStateException("an acceptance fixture failed");
        }

        out.println();
        out.println("Claude Code attach mode (builtin:integrity-attach on SessionStart, through "
                + (env.launcher() != null ? "bin/warden dispatch" : "in-process dispatch") + "):");
        Path small = claudeProject(work.resolve("claude-local"), "reviewer", localAgent(), "markers");
        out.println("  user-local agent .claude/agents/reviewer.md (markers profile, 1 KB): "
                + clip(SessionReplayDemo.describe(dispatch(env, small)), 90));
        byte[] squad = SquadArtifacts.coordinator(AcceptanceFixtures.RELEASED_VERSION, SquadArtifacts.team("Lead"),
                SquadArtifacts.SDK_TEMPLATE_BYTES);
        Path big = claudeProject(work.resolve("claude-squad"), "squad", squad, "squad");
        out.println("  squad coordinator (" + squad.length + " bytes, over the 10,000-character hook cap): "
                + clip(SessionReplayDemo.describe(dispatch(env, big)), 400));

        out.println();
        out.println("warden launch in front of a host command (the host prints the SHA-256 of the file it was handed):");
        Path repo = work.resolve("repo");
        Files.createDirectories(repo.resolve(".git"));
        Path agents = Files.createDirectories(repo.resolve(".github/agents"));
        Files.write(agents.resolve("squad.agent.md"), squad);
        Files.writeString(repo.resolve("releases.json"), JsonFileReleaseStore.render(List.of(JsonFileReleaseStore.register(
                "squad", new ReleaseKey(AcceptanceFixtures.RELEASED_VERSION, "copilot-cli", "1.0.3"), squad, null))));
        out.println("  intact file:   " + launch(env, repo));
        Files.write(agents.resolve("squad.agent.md"), java.util.Arrays.copyOf(squad, squad.length - 60));
        out.println("  tail cut off:  " + launch(env, repo));

        out.println();
        out.println("warden integrity stats over the fixtures' evidence log:");
        StringWriter stats = new StringWriter();
        WardenCli.execute(new String[] {"integrity", "stats", "--evidence",
                work.resolve("fixtures/.warden/state/integrity/evidence.jsonl").toString()}, new PrintWriter(stats), new PrintWriter(stats));
        for (String line : stats.toString().split("\n")) {
            out.println("  " + line);
        }
    }

    private static byte[] localAgent() {
        StringBuilder s = new StringBuilder("---\nname: reviewer\ndescription: Reviews diffs\n---\n<!-- reviewer:head -->\n");
        for (int i = 1; i <= 20; i++) {
            s.append(i).append(". Review rule ").append(i).append(": read the whole diff before commenting.\n");
        }
        return s.append("<!-- reviewer:eof -->\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    private static Path claudeProject(Path project, String agent, byte[] agentFile, String profile) throws IOException {
        Path dir = Files.createDirectories(project.resolve(".claude/agents"));
        Files.write(dir.resolve(agent + ".md"), agentFile);
        Files.createDirectories(project.resolve(".warden"));
        String markers = profile.equals("markers")
                ? "    head_marker: \"<!-- reviewer:head -->\"\n    eof_marker: \"<!-- reviewer:eof -->\"\n" : "";
        Files.writeString(project.resolve(".warden/manifest.yaml"), "schema_version: 1\n"
                + "concerns:\n"
                + "  agent-integrity:\n"
                + "    script: builtin:integrity-attach\n"
                + "    posture: blocking\n"
                + "    agent: " + agent + "\n"
                + "    profile: " + profile + "\n"
                + markers
                + "    agent_version: \"" + AcceptanceFixtures.RELEASED_VERSION + "\"\n"
                + "    client_version: \"2.1.0\"\n"
                + "platforms:\n"
                + "  claude:\n"
                + "    session_start: [agent-integrity]\n"
                + "native_event_aliases:\n"
                + "  claude:\n"
                + "    SessionStart: session_start\n", StandardCharsets.UTF_8);
        return project;
    }

    private static String dispatch(DemoEnv env, Path project) throws IOException, InterruptedException {
        String payload = "{\"session_id\":\"demo\",\"cwd\":\"" + project.toString().replace("\\", "\\\\").replace("\"", "\\\"")
                + "\",\"hook_event_name\":\"SessionStart\",\"source\":\"startup\"}";
        Map<String, String> childEnv = new HashMap<>(env.hostEnv());
        childEnv.put("CLAUDE_PROJECT_DIR", project.toString());
        DemoDispatch.trust(childEnv, project);
        return DemoDispatch.claude(env.launcher(), project, childEnv, "SessionStart", payload);
    }

    /** Runs launch in {@code repo}; returns the exit code, outcome and what the host printed. */
    private static String launch(DemoEnv env, Path repo) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of("launch", "--agent", "squad", "--client", "copilot-cli",
                "--client-version", "1.0.3", "--agent-version", AcceptanceFixtures.RELEASED_VERSION,
                "--release-manifest", "releases.json", "--", "sh", "-c", "echo host read $(sha256sum < \"$1\" | cut -c1-12)…",
                "sh", LaunchCommand.PLACEHOLDER));
        if (env.launcher() == null) {
            return "(skipped: launch runs a host process and needs bin/warden)";
        }
        argv.add(0, env.launcher().toString());
        Process p = new ProcessBuilder(argv).directory(repo.toFile()).start();
        String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        int code = p.waitFor();
        String outcome = stderr.lines().filter(l -> l.startsWith("outcome: ")).findFirst().orElse("outcome: ?");
        return "exit " + code + ", " + outcome + (stdout.isEmpty() ? ", host not started" : ", " + stdout);
    }

    private static String shortSha(String sha) {
        return sha == null ? "—" : sha.substring(0, 12) + "…";
    }

    private static String clip(String s, int width) {
        String flat = s.replace('\n', ' ');
        return flat.length() <= width ? flat : flat.substring(0, width - 1) + "…";
    }
}
