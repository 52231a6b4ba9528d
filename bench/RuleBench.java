import dev.agentwarden.concern.Concern;
import dev.agentwarden.concern.ConcernContext;
import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.concern.Posture;
import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.host.claude.ClaudeAdapter;
import dev.agentwarden.json.Json;
import dev.agentwarden.rule.RuleView;
import dev.agentwarden.rule.Rules;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * µs per rule evaluation in a warm JVM (the resident's case), median of ROUNDS rounds of ITERATIONS
 * evaluations after a warm-up: a plain loop harness, since JMH is not in this build's offline
 * repository. On the captured Claude Code PreToolUse Bash payload:
 *   - the event view alone (RuleView.values: the shell parse, paths, MCP name);
 *   - one rule per shape, view included: a field comparison, a list membership over the parsed
 *     commands, a comprehension with a regular expression, a rewrite (condition and expression);
 *   - the first compile of a rule (parse, type-check, plan) in this JVM, and a cached one.
 *
 *   java -cp target/warden.jar bench/RuleBench.java [ROUNDS] [ITERATIONS]
 */
public final class RuleBench {
    public static void main(String[] a) throws Exception {
        int rounds = a.length > 0 ? Integer.parseInt(a[0]) : 7;
        int iterations = a.length > 1 ? Integer.parseInt(a[1]) : 20_000;
        byte[] payload = Files.readAllBytes(Path.of("bench/pretooluse-bash.json"));
        Map<String, Object> fields = Json.parseObject(new String(payload, StandardCharsets.UTF_8));
        Path project = Files.createTempDirectory("warden-rulebench");
        HookEvent event = new ClaudeAdapter("claude").normalize("PreToolUse", EventName.PRE_TOOL_USE, fields, payload,
                project.toString());

        long t0 = System.nanoTime();
        Object first = Rules.parse(settings("tool.kind == \"shell\" && \"rm\" in commands", "deny", null));
        long firstCompileUs = (System.nanoTime() - t0) / 1_000;
        t0 = System.nanoTime();
        Rules.parse(settings("tool.kind == \"shell\" && \"rm\" in commands", "deny", null));
        long cachedCompileUs = (System.nanoTime() - t0) / 1_000;
        t0 = System.nanoTime();
        Rules.parse(settings("tool.name == \"Write\" && paths.exists(p, p.endsWith(\".env\"))", "deny", null));
        long secondCompileUs = (System.nanoTime() - t0) / 1_000;

        System.out.printf("%-58s %10s%n", "case", "µs median");
        System.out.printf("%-58s %10d%n", "first rule compiled in this JVM (CEL classes load)", firstCompileUs);
        System.out.printf("%-58s %10d%n", "another rule compiled (CEL loaded)", secondCompileUs);
        System.out.printf("%-58s %10d%n", "same rule again (per-process cache)", cachedCompileUs);

        double view = median(rounds, iterations, () -> RuleView.values(event));
        System.out.printf("%-58s %10.2f%n", "event view alone (shell parse, paths, MCP name)", view);
        String[][] rules = {
            {"field comparison: tool.name == \"Bash\"", "tool.name == \"Bash\"", "warn", null},
            {"membership: \"git\" in commands && \"--force\" in words",
                "\"git\" in commands && \"--force\" in words", "deny", null},
            {"comprehension + regex: words.exists(w, w.matches(...))",
                "words.exists(w, w.matches(\"^--(force|no-verify)$\"))", "deny", null},
            {"rewrite: condition true, command + \" --dry-run\"", "tool.kind == \"shell\"", "rewrite",
                "command + \" --dry-run\""},
        };
        for (String[] r : rules) {
            Concern concern = Rules.create(Rules.parse(settings(r[1], r[2], r[3])));
            ConcernContext context = new ConcernContext(event, spec(r[1], r[2], r[3]), Clock.systemUTC(), project, Map.of());
            double us = median(rounds, iterations, () -> concern.evaluate(context));
            System.out.printf("%-58s %10.2f%n", r[0], us);
        }
    }

    interface Op {
        Object run() throws Exception;
    }

    /** Median over rounds of µs per call; the first two rounds are warm-up. */
    static double median(int rounds, int iterations, Op op) throws Exception {
        double[] us = new double[rounds];
        Object sink = null;
        for (int w = 0; w < 2; w++) {
            for (int i = 0; i < iterations; i++) {
                sink = op.run();
            }
        }
        for (int r = 0; r < rounds; r++) {
            long start = System.nanoTime();
            for (int i = 0; i < iterations; i++) {
                sink = op.run();
            }
            us[r] = (System.nanoTime() - start) / 1_000.0 / iterations;
        }
        if (sink == null) {
            throw new IllegalStateException("no result");
        }
        Arrays.sort(us);
        return us[rounds / 2];
    }

    static Map<String, Object> settings(String when, String action, String rewrite) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("when", when);
        s.put("action", action);
        if (rewrite != null) {
            s.put("rewrite", Map.of("command", rewrite));
        }
        return s;
    }

    static ConcernSpec spec(String when, String action, String rewrite) {
        return new ConcernSpec("bench-rule", "builtin:rule", List.of(), false, Posture.BLOCKING, Set.of(),
                ConcernSpec.DEFAULT_TIMEOUT_MS, false, 0, settings(when, action, rewrite));
    }
}
