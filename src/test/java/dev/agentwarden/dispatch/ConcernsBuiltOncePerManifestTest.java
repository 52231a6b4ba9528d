package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.concern.Posture;
import dev.agentwarden.decision.ChainResult;
import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.verdict.Verdict.Kind;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A manifest owns the concerns dispatch builds from it ({@link Manifest#built}, {@link Manifest#chain}):
 * each built-in is built once per manifest, whichever chains bind it, and never shared with another
 * manifest; the one instance serves events dispatched concurrently, each getting its own verdict.
 */
class ConcernsBuiltOncePerManifestTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-01T00:00:00Z"), ZoneOffset.UTC);

    private static final String YAML = """
            schema_version: 1
            concerns:
              nv:
                script: builtin:block-no-verify
              deny-rm:
                script: builtin:deny-pattern
                tools: [Bash]
                patterns: [{match: 'rm -rf /', reason: no rm of the root}]
            roles:
              worker:
                drop: [deny-rm]
            platforms:
              claude:
                pre_tool_use: [nv, deny-rm]
                post_tool_use: [deny-rm]
            """;

    @Test
    void built_concernBoundInTwoChains_isOneInstance() {
        Manifest m = TestManifests.compile(YAML);
        ConcernSpec fromPre = m.chain("claude", EventName.PRE_TOOL_USE, "").get(1);
        ConcernSpec fromPost = m.chain("claude", EventName.POST_TOOL_USE, "").get(0);

        Manifest.Built first = m.built(fromPre);

        assertThat(first.problem()).isNull();
        assertThat(first.concern()).isNotNull();
        assertThat(m.built(fromPost).concern()).isSameAs(first.concern());
    }

    @Test
    void built_sameYamlCompiledTwice_eachManifestBuildsItsOwn() {
        Manifest a = TestManifests.compile(YAML);
        Manifest b = TestManifests.compile(YAML);

        assertThat(a).isEqualTo(b);
        assertThat(a.built(a.concerns().get("deny-rm")).concern())
                .isNotSameAs(b.built(b.concerns().get("deny-rm")).concern());
    }

    @Test
    void chain_sameKeyAgain_isTheSameUnmodifiableList() {
        Manifest m = TestManifests.compile(YAML);

        List<ConcernSpec> chain = m.chain("claude", EventName.PRE_TOOL_USE, "");

        assertThat(m.chain("claude", EventName.PRE_TOOL_USE, "")).isSameAs(chain);
        assertThat(chain).extracting(ConcernSpec::name).containsExactly("nv", "deny-rm");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> chain.add(chain.get(0)))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    /** A role the manifest does not name runs the default role's list: one list, however many roles sessions claim. */
    @Test
    void chain_rolesTheManifestDoesNotName_shareTheDefaultRolesList() {
        Manifest m = TestManifests.compile(YAML);

        List<ConcernSpec> byDefault = m.chain("claude", EventName.PRE_TOOL_USE, null);

        assertThat(m.chain("claude", EventName.PRE_TOOL_USE, "reviewer")).isSameAs(byDefault);
        assertThat(m.chain("claude", EventName.PRE_TOOL_USE, "x".repeat(200))).isSameAs(byDefault);
        assertThat(m.chain("claude", EventName.PRE_TOOL_USE, "")).isSameAs(byDefault);
    }

    /** Settings the compiler never saw (a manifest made in code) that do not parse: the same error every event, built once. */
    @Test
    void built_settingsThatDoNotParse_errorKeptAndDispatchAllows() {
        ConcernSpec bad = new ConcernSpec("bad", "builtin:deny-pattern", List.of(), false, Posture.BLOCKING, Set.of(),
                ConcernSpec.DEFAULT_TIMEOUT_MS, false, 0, Map.of("patterns", "not a list"));
        Manifest m = new Manifest("test", "0", Map.of(), Map.of("bad", bad),
                Map.of("claude", Map.of("pre_tool_use", Map.of("", List.of("bad")))));

        Manifest.Built built = m.built(bad);

        assertThat(built.concern()).isNull();
        assertThat(built.problem()).startsWith("cannot be constructed: patterns");
        assertThat(m.built(bad)).isSameAs(built);
        ChainResult r = new Dispatcher(m, CLOCK, Map.of()).dispatch(TestManifests.claudeEvent("PreToolUse",
                EventName.PRE_TOOL_USE, "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}", "/tmp"), "");
        assertThat(r.outcomes()).singleElement().satisfies(o -> {
            assertThat(o.raw().reason()).isEqualTo(built.problem());
            assertThat(o.effective()).isEqualTo(Kind.ALLOW);
        });
    }

    @Test
    void built_specThatIsNotTheManifestsOwn_isBuiltEachTime() {
        Manifest m = TestManifests.compile(YAML);
        ConcernSpec own = m.concerns().get("deny-rm");
        ConcernSpec twin = new ConcernSpec(own.name(), own.script(), own.args(), own.failClosed(), own.posture(),
                own.tools(), own.timeoutMs(), own.skipOnRefusalRetry(), own.nudgeRank(), Map.of("patterns",
                List.of(Map.of("match", "other", "reason", "other"))));

        assertThat(m.built(twin).concern()).isNotSameAs(m.built(own).concern())
                .isNotSameAs(m.built(twin).concern());
    }

    /** The resident's case: one manifest's instances run events from many threads at once, each judged on its own command. */
    @Test
    void dispatch_manyThreadsOneManifest_eachEventGetsItsOwnVerdict(@TempDir Path project) throws Exception {
        Manifest m = TestManifests.compile(YAML);
        String[] commands = {"git commit --no-verify -m x", "git commit -m x", "rm -rf /", "ls -la",
                "git -c core.hooksPath=/dev/null commit -m x", "git push"};
        Kind[] expected = {Kind.BLOCK, Kind.ALLOW, Kind.BLOCK, Kind.ALLOW, Kind.BLOCK, Kind.ALLOW};
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<String>> runs = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int offset = t;
                runs.add(pool.submit(() -> {
                    Dispatcher d = new Dispatcher(m, CLOCK, Map.of());
                    for (int i = 0; i < 120; i++) {
                        int c = (i + offset) % commands.length;
                        HookEvent e = TestManifests.claudeEvent("PreToolUse", EventName.PRE_TOOL_USE,
                                "{\"session_id\":\"s" + offset + "\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\""
                                        + commands[c] + "\"}}", project.toString());
                        ChainResult r = d.dispatch(e, "");
                        if (r.verdict().kind() != expected[c]) {
                            return commands[c] + " -> " + r.verdict() + " " + r.outcomes();
                        }
                    }
                    return null;
                }));
            }
            pool.shutdown();
            assertThat(pool.awaitTermination(120, TimeUnit.SECONDS)).as("dispatches done within their deadline").isTrue();
            for (Future<String> run : runs) {
                assertThat(run.get()).as("a verdict not its own event's").isNull();
            }
        } finally {
            pool.shutdownNow();
        }
        List<ConcernSpec> chain = m.chain("claude", EventName.PRE_TOOL_USE, "");
        for (ConcernSpec spec : chain) {
            assertThat(m.built(spec).concern()).as(spec.name()).isSameAs(m.built(spec).concern());
        }
    }
}
