package dev.agentwarden.bench;

import dev.agentwarden.concern.Concern;
import dev.agentwarden.concern.ConcernContext;
import dev.agentwarden.concern.ConcernResult;
import dev.agentwarden.concern.Decision;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.rule.RuleView;
import dev.agentwarden.rule.Rules;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One {@code builtin:rule} concern run, compiled once (as the resident does per manifest) and
 * evaluated per event: the event view (shell parse, paths, MCP name) plus the CEL evaluation under
 * its step budget. {@link #view} is the view alone; {@link #compile} a rule CEL has not seen before
 * (CEL's classes loaded), the cost a changed manifest pays once.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RuleEvaluationBench {

    @State(Scope.Benchmark)
    public static class Event {
        HookEvent event;
        Path project;

        @Setup
        public void setUp() throws IOException {
            project = Files.createTempDirectory("warden-jmh-rule");
            event = RuleCases.event(project);
        }

        @TearDown
        public void tearDown() throws IOException {
            RuleCases.delete(project);
        }
    }

    @State(Scope.Benchmark)
    public static class Rule {
        @Param({"FIELD", "MEMBERSHIP", "REGEX", "REWRITE"})
        public RuleCases rule;

        Concern concern;
        ConcernContext context;

        @Setup
        public void setUp(Event e) throws Exception {
            concern = Rules.create(Rules.parse(rule.settings()));
            context = new ConcernContext(e.event, rule.spec(), Clock.systemUTC(), e.project, Map.of());
            ConcernResult first = concern.evaluate(context);
            boolean fired = first.decision() != Decision.ALLOW || first.rewrites();
            if (first.decision() == Decision.ERROR || fired != rule.firesOnPayload()) {
                throw new IllegalStateException(rule + " answered " + first + " on " + RuleCases.PAYLOAD);
            }
        }
    }

    /** A counter making each compiled rule one CEL has not seen (the per-process cache keys on the settings). */
    @State(Scope.Thread)
    public static class Fresh {
        long n;
    }

    @Benchmark
    public Object view(Event e) {
        return RuleView.values(e.event);
    }

    @Benchmark
    public ConcernResult evaluate(Rule r) throws Exception {
        return r.concern.evaluate(r.context);
    }

    @Benchmark
    public Object compile(Fresh f) {
        return Rules.parse(Map.of("when", "\"git\" in commands && \"--force-" + (f.n++) + "\" in words",
                "action", "deny"));
    }
}
