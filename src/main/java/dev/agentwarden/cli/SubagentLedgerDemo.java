package dev.agentwarden.cli;

import dev.agentwarden.guard.GuardDerivation;
import dev.agentwarden.json.Json;
import dev.agentwarden.ledger.LedgerPaths;
import dev.agentwarden.ledger.LedgerReader;
import dev.agentwarden.ledger.LedgerSettings;
import dev.agentwarden.ledger.LedgerStats;
import dev.agentwarden.ledger.LedgerVerifier;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A Claude Code session that fans out three parallel subagents, one of which spawns a nested one,
 * dispatched event by event through {@code bin/warden dispatch --host claude} (parallel events as
 * parallel processes) with the default manifest: the subagent ledger records, the spawn guard
 * watches in shadow. Then it shows the ledger lines, the shadow verdicts, {@code ledger verify},
 * {@code ledger stats} and {@code guard derive}, and enforces the derived threshold: with the
 * guard in blocking posture, one spawn too many is refused.
 */
final class SubagentLedgerDemo implements DemoSection {
    static final String SESSION = "5f0c2d1e-demo-4b7a-9c1e-3a2b1c0d9e8f";
    static final String ENVELOPE = "Done.\n```json\n{\"summary\":\"Mapped the parser modules\",\"handoff\":\"start at "
            + "Parser.java\",\"confidence\":\"high\",\"findings\":[{\"title\":\"two tokenizers\"}],\"risks\":[]}\n```";

    @Override
    public String title() {
        return "Subagent lifecycle ledger and spawn guard: nested and parallel subagents, shadow, derive, enforce";
    }

    @Override
    public void run(DemoEnv env) throws Exception {
        Path project = env.workDir();
        Map<String, String> childEnv = new HashMap<>(env.hostEnv());
        childEnv.put("WARDEN_PROJECT_DIR", project.toString());
        childEnv.put("CLAUDE_PROJECT_DIR", project.toString());
        childEnv.remove("WARDEN_REPLAY");
        childEnv.remove("AGENT_CONFIG_REPLAY");
        Transport transport = new Transport(env.launcher(), project, childEnv);
        PrintWriter out = env.out();
        out.println("project: " + project + "   manifest: the default (subagent-ledger; spawn-guard posture shadow)");
        out.println("transport: " + (env.launcher() != null ? "one bin/warden process per event, parallel events as parallel processes"
                : "in-process dispatch (bin/warden not found), parallel events on parallel threads"));
        out.println();

        step(out, "main agent asks for 3 Agent spawns at once", transport.parallel(
                spawn(project, null), spawn(project, null), spawn(project, null)));
        step(out, "SubagentStart explorer-a, explorer-b, reviewer-c (parallel)", transport.parallel(
                start(project, "explorer-a", "Explore", null), start(project, "explorer-b", "Explore", null),
                start(project, "reviewer-c", "code-reviewer", null)));
        step(out, "explorer-a calls Task (agent_id on the payload)", transport.parallel(spawn(project, "explorer-a")));
        step(out, "SubagentStart explorer-a.1, parent named explorer-a", transport.parallel(
                start(project, "explorer-a.1", "Explore", "explorer-a")));
        step(out, "SubagentStop explorer-a.1 (returns an envelope)", transport.parallel(
                stop(project, "explorer-a.1", "Explore", ENVELOPE)));
        step(out, "SubagentStop explorer-b, reviewer-c, explorer-a (parallel)", transport.parallel(
                stop(project, "explorer-b", "Explore", "I looked around; nothing stands out."),
                stop(project, "reviewer-c", "code-reviewer", "Review: {\"issues\": 2}"),
                stop(project, "explorer-a", "Explore", ENVELOPE)));
        out.println();

        LedgerPaths paths = LedgerPaths.forRoot(project.toString());
        printLedger(out, paths);
        LedgerVerifier.Report verify = LedgerVerifier.verify(paths);
        out.println("warden ledger verify: " + (verify.intact() ? "intact" : "NOT intact") + ", " + verify.chainLines()
                + " chain lines, " + verify.problems().size() + " problem(s)");
        out.println();
        out.println("warden ledger stats:");
        StringWriter stats = new StringWriter();
        LedgerStats.compute(paths, LedgerSettings.DEFAULTS, Clock.systemUTC()).printText(new PrintWriter(stats));
        out.print(stats.toString().indent(2));
        out.println("warden guard derive:");
        GuardDerivation.Report derived = GuardDerivation.derive(paths, null);
        StringWriter derive = new StringWriter();
        derived.printText(new PrintWriter(derive));
        out.print(derive.toString().indent(2));

        enforce(out, transport, project, derived.concurrencyThreshold());
    }

    /** Writes a project manifest that enforces the derived threshold, opens that many subagents, and spawns once more. */
    private static void enforce(PrintWriter out, Transport transport, Path project, long threshold) throws Exception {
        Files.writeString(project.resolve(".warden/manifest.yaml"), """
                schema_version: 1
                concerns:
                  subagent-ledger:
                    script: builtin:subagent-ledger
                    posture: shadow
                  spawn-guard:
                    script: builtin:spawn-guard
                    posture: blocking
                    tools: [Agent, Task]
                    candidates: [{label: derived, max_concurrent: %d}]
                    enforce: derived
                platforms:
                  claude:
                    pre_tool_use: [spawn-guard]
                    subagent_start: [subagent-ledger]
                    subagent_stop: [subagent-ledger]
                native_event_aliases:
                  claude: {PreToolUse: pre_tool_use, SubagentStart: subagent_start, SubagentStop: subagent_stop}
                """.formatted(threshold));
        transport.trust();
        out.println("enforce (the demo does not wait for the window): .warden/manifest.yaml now sets spawn-guard "
                + "posture: blocking with {label: derived, max_concurrent: " + threshold + "}");
        List<String[]> opens = new ArrayList<>();
        for (int i = 1; i <= threshold; i++) {
            opens.add(start(project, "worker-" + i, "general-purpose", null));
        }
        step(out, "SubagentStart worker-1..worker-" + threshold + " (parallel)", transport.parallel(opens.toArray(String[][]::new)));
        step(out, "main agent asks for one more Agent spawn", transport.parallel(spawn(project, null)));
    }

    private static void step(PrintWriter out, String what, List<String> outputs) {
        out.printf("  %-62s -> %s%n", what, summary(outputs));
        out.flush();
    }

    private static String summary(List<String> outputs) {
        List<String> seen = new ArrayList<>();
        for (String o : outputs) {
            String d = SessionReplayDemo.describe(o);
            if (!seen.contains(d)) {
                seen.add(d);
            }
        }
        return String.join(" | ", seen);
    }

    private static void printLedger(PrintWriter out, LedgerPaths paths) throws IOException {
        out.println("ledger lines (" + paths.stateHome().getParent().relativize(paths.ledgerDir()) + "/<month>.jsonl):");
        out.printf("  %-3s %-19s %-19s %-5s %-19s %-5s %-9s %-14s %s%n", "#", "event", "ref", "depth", "depth basis",
                "open", "duration", "envelope", "shadow verdicts n2m4/n3m6/n4m8");
        int[] n = {0};
        LedgerReader.read(paths, e -> {
            Map<String, Object> f = e.fields();
            boolean spawn = "spawn_guard_shadow".equals(e.string("event"));
            Object depth = spawn ? f.get("spawn_depth") : f.get("depth");
            Object basis = f.get("depth_basis");
            Object duration = f.get("duration_ms");
            out.printf("  %-3d %-19s %-19s %-5s %-19s %-5s %-9s %-14s %s%n", ++n[0], e.string("event"),
                    f.get("ref") == null ? (spawn ? "caller " + orDash(f.get("caller_ref")) : "-") : f.get("ref"),
                    orDash(depth), orDash(basis), orDash(f.get("concurrent_open")),
                    duration == null ? "-" : duration + "ms", orDash(f.get("envelope_parse")), spawn ? verdicts(f) : "");
        });
        out.println();
    }

    private static String verdicts(Map<String, Object> line) {
        StringBuilder sb = new StringBuilder();
        if (line.get("candidates") instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Map<?, ?> c) {
                    sb.append(sb.length() == 0 ? "" : " ").append(Boolean.TRUE.equals(c.get("would_deny"))
                            ? "deny(" + c.get("on") + ")" : "pass");
                }
            }
        }
        return sb.toString();
    }

    private static String orDash(Object o) {
        return o == null ? "-" : String.valueOf(o);
    }

    private static String[] spawn(Path project, String callerAgentId) {
        Map<String, Object> p = base(project, "PreToolUse");
        if (callerAgentId != null) {
            p.put("agent_id", callerAgentId);
            p.put("agent_type", "Explore");
        }
        p.put("tool_name", callerAgentId == null ? "Agent" : "Task");
        p.put("tool_input", Map.of("description", "look into the parser", "prompt", "map the parser modules",
                "subagent_type", "Explore"));
        return new String[] {"PreToolUse", Json.write(p)};
    }

    private static String[] start(Path project, String agentId, String type, String parent) {
        Map<String, Object> p = base(project, "SubagentStart");
        p.put("agent_id", agentId);
        p.put("agent_type", type);
        if (parent != null) {
            p.put("parent_agent_id", parent);
        }
        return new String[] {"SubagentStart", Json.write(p)};
    }

    private static String[] stop(Path project, String agentId, String type, String message) {
        Map<String, Object> p = base(project, "SubagentStop");
        p.put("agent_id", agentId);
        p.put("agent_type", type);
        p.put("stop_hook_active", false);
        p.put("last_assistant_message", message);
        return new String[] {"SubagentStop", Json.write(p)};
    }

    private static Map<String, Object> base(Path project, String nativeEvent) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("session_id", SESSION);
        p.put("cwd", project.toString());
        p.put("hook_event_name", nativeEvent);
        return p;
    }

    /** Dispatches events through bin/warden (one process each) or in-process, several at once. */
    private static final class Transport {
        private final Path launcher;
        private final Path project;
        private final Map<String, String> env;

        /** Trusts the project manifest the demo just wrote, in the demo's trust store. */
        void trust() throws IOException {
            DemoDispatch.trust(env, project);
        }

        Transport(Path launcher, Path project, Map<String, String> env) {
            this.launcher = launcher;
            this.project = project;
            this.env = env;
        }

        /** Runs the events concurrently; returns each one's stdout, in order. */
        List<String> parallel(String[]... events) throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(events.length);
            try {
                List<Future<String>> futures = new ArrayList<>();
                for (String[] e : events) {
                    futures.add(pool.submit(() -> DemoDispatch.claude(launcher, project, env, e[0], e[1])));
                }
                List<String> outputs = new ArrayList<>();
                for (Future<String> f : futures) {
                    outputs.add(f.get());
                }
                return outputs;
            } finally {
                pool.shutdown();
            }
        }
    }
}
