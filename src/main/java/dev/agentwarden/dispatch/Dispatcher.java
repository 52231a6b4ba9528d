package dev.agentwarden.dispatch;

import dev.agentwarden.decision.ChainResult;
import dev.agentwarden.decision.ConcernOutcome;
import dev.agentwarden.verdict.Verdict;
import dev.agentwarden.builtin.Builtins;
import dev.agentwarden.concern.Concern;
import dev.agentwarden.concern.ConcernContext;
import dev.agentwarden.concern.ConcernResult;
import dev.agentwarden.concern.Decision;
import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.event.WorkspaceRoot;
import dev.agentwarden.json.Json;
import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.concern.Posture;
import dev.agentwarden.concern.Replay;
import dev.agentwarden.trust.ScriptTrust;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs the chain bound to one event and combines the outcomes into a {@link Verdict}, with
 * agent-config's semantics: chain order; role drops (compiled in); the {@code tools} filter;
 * {@code skip_on_refusal_retry}; exit-code meanings; fail-open unless {@code fail_closed}; the
 * posture ceiling (shadow emits nothing, advisory never blocks); at most one ranked nudge; a
 * concern's {@code escalate} step after repeated strikes, and one strike per refused event
 * ({@link SessionStrikes}).
 *
 * <p>It never throws for a concern: each run is guarded and a failure becomes the concern's
 * defined outcome. Every concern has a deadline, its {@code timeout_ms}: a process concern is
 * killed past it, a built-in that does file I/O is interrupted ({@link BoundedBuiltin}). Built-in
 * concerns are the manifest's, built once per manifest ({@link Manifest#built}).
 */
public final class Dispatcher {
    private final Manifest manifest;
    private final Clock clock;
    private final Map<String, String> env;
    private final Map<String, String> childEnv;
    private final ScriptTrust scripts;
    private final List<String> commandPrefix;

    public Dispatcher(Manifest manifest, Clock clock, Map<String, String> env) {
        this(manifest, clock, env, null);
    }

    /**
     * @param env      the variables built-in concerns read
     * @param childEnv the whole environment of concern processes, or {@code null} to inherit this JVM's
     */
    public Dispatcher(Manifest manifest, Clock clock, Map<String, String> env, Map<String, String> childEnv) {
        this(manifest, clock, env, childEnv, ScriptTrust.ANY, List.of());
    }

    /**
     * @param scripts which process-concern scripts may run ({@link ScriptTrust#ANY} for a manifest the user named)
     * @param commandPrefix what each concern process's command runs under ({@link Caller#commandPrefix})
     */
    public Dispatcher(Manifest manifest, Clock clock, Map<String, String> env, Map<String, String> childEnv,
                      ScriptTrust scripts, List<String> commandPrefix) {
        this.manifest = manifest;
        this.clock = clock;
        this.env = env;
        this.childEnv = childEnv;
        this.scripts = scripts;
        this.commandPrefix = commandPrefix;
    }

    /** The concerns that will run for an event and role, after the tools filter and retry skips. */
    public List<ConcernSpec> chainFor(HookEvent event, String role) {
        List<ConcernSpec> out = new ArrayList<>();
        // agent-config (dispatch_hook.ts) skips these on stop only, never on subagent_stop
        boolean refusalRetry = event.event() == EventName.STOP && event.stopHookActive();
        for (ConcernSpec spec : manifest.chain(event.host(), event.event(), role)) {
            if (!spec.appliesTo(event)) {
                continue;
            }
            if (refusalRetry && spec.skipOnRefusalRetry()) {
                continue;
            }
            out.add(spec);
        }
        return out;
    }

    public ChainResult dispatch(HookEvent event, String role) {
        List<ConcernOutcome> outcomes = new ArrayList<>();
        Path stateHome = null;
        String rewriter = null;
        SessionStrikes strikes = null;
        for (ConcernSpec spec : chainFor(event, role)) {
            long start = System.nanoTime();
            if (stateHome == null) {
                stateHome = WorkspaceRoot.stateHome(event.workspaceRoot());
            }
            ConcernResult raw = runGuarded(spec, event, stateHome);
            long durationUs = (System.nanoTime() - start) / 1_000;
            ConcernOutcome outcome = settle(spec, raw, durationUs);
            if (spec.escalate() != null) {
                if (strikes == null) {
                    strikes = new SessionStrikes(stateHome, event.sessionId(), clock.millis(), !Replay.active(env));
                }
                outcome = strikes.escalate(spec.escalate(), outcome);
            }
            if (outcome.updatedInput() != null) {
                if (rewriter == null) {
                    rewriter = spec.name();
                } else {
                    outcome = new ConcernOutcome(outcome.concern(), outcome.raw(), outcome.effective(), null,
                            outcome.durationUs(), appendNote(outcome.note(), "rewrite conflict: ignored, " + rewriter
                            + " rewrote the tool input first (chain order)"), null);
                }
            }
            outcomes.add(outcome);
        }
        outcomes = keepLowestRankedNudge(outcomes);
        int refusedBy = refusing(outcomes);
        if (refusedBy >= 0 || strikes != null && strikes.escalated() != null) {
            if (strikes == null) {
                strikes = new SessionStrikes(stateHome, event.sessionId(), clock.millis(), !Replay.active(env));
            }
            if (refusedBy >= 0) {
                String failed = strikes.record();
                if (failed != null) {
                    outcomes.set(refusedBy, SessionStrikes.withNote(outcomes.get(refusedBy), failed));
                }
            }
            return new ChainResult(Verdict.combine(outcomes), outcomes, strikes.count(), strikes.escalated());
        }
        return new ChainResult(Verdict.combine(outcomes), outcomes);
    }

    /**
     * The index of the first outcome that refuses the event by its concern's own decision ({@code block}
     * or {@code halt} that stays one after posture: a strike), or -1.
     */
    private static int refusing(List<ConcernOutcome> outcomes) {
        for (int i = 0; i < outcomes.size(); i++) {
            ConcernOutcome o = outcomes.get(i);
            Decision d = o.raw().decision();
            if ((o.effective() == Verdict.Kind.BLOCK || o.effective() == Verdict.Kind.HALT)
                    && (d == Decision.BLOCK || d == Decision.HALT)) {
                return i;
            }
        }
        return -1;
    }

    /** Whether some concern bound to this event would refuse when it cannot run. */
    public boolean hasFailClosedBlocker(String host, EventName event, String role) {
        for (ConcernSpec c : manifest.chain(host, event, role)) {
            if (c.failClosed() && c.posture() == Posture.BLOCKING) {
                return true;
            }
        }
        return false;
    }

    private ConcernResult runGuarded(ConcernSpec spec, HookEvent event, Path stateHome) {
        try {
            if (spec.isBuiltin()) {
                Manifest.Built built = manifest.built(spec);
                if (built.problem() != null) {
                    return ConcernResult.error(built.problem());
                }
                Concern concern = built.concern();
                ConcernContext context = new ConcernContext(event, spec, clock, stateHome, env);
                ConcernResult result = Builtins.touchesFiles(spec.builtinName())
                        ? BoundedBuiltin.run(concern, context, spec.timeoutMs()) : concern.evaluate(context);
                return result == null ? ConcernResult.allow() : result;
            }
            return ExternalConcern.run(spec, Path.of(event.workspaceRoot()), envelope(event, spec,
                            env.get("AGENT_SESSION_ID")), childEnv,
                    Map.of("WARDEN_CONCERN", spec.name(), "WARDEN_EVENT", event.event().wire()), scripts,
                    commandPrefix, new ExternalConcern.Call(event.host(), event.event() == EventName.SESSION_START));
        } catch (Exception | StackOverflowError | OutOfMemoryError e) {
            return ConcernResult.error("crashed: " + e);
        }
    }

    /** Applies fail mode and posture to a raw result. */
    static ConcernOutcome settle(ConcernSpec spec, ConcernResult raw, long durationUs) {
        Decision d = raw.decision();
        String message;
        String note = null;
        Verdict.Kind kind;
        switch (d) {
            case ERROR:
                if (spec.failClosed()) {
                    kind = Verdict.Kind.BLOCK;
                    message = spec.name() + " could not run (" + raw.reason() + "); fail_closed refuses";
                    note = raw.reason() + "; fail-closed";
                } else {
                    kind = Verdict.Kind.ALLOW;
                    message = null;
                    note = raw.reason() + "; fail-open";
                }
                break;
            case HALT:
                kind = Verdict.Kind.HALT;
                message = raw.reason();
                break;
            case BLOCK:
                kind = Verdict.Kind.BLOCK;
                message = raw.reason();
                break;
            case ASK:
                kind = Verdict.Kind.ASK;
                message = raw.reason();
                break;
            case WARN:
                kind = Verdict.Kind.WARN;
                message = ExternalConcern.join(raw.reason(), raw.context());
                break;
            case ALLOW:
            default:
                kind = Verdict.Kind.ALLOW;
                message = raw.rewrites() ? ExternalConcern.join(raw.reason(), raw.context()) : raw.context();
                break;
        }
        java.util.Map<String, Object> updated = d == Decision.ALLOW ? raw.updatedInput() : null;
        if (spec.posture() == Posture.SHADOW && (kind != Verdict.Kind.ALLOW || message != null || updated != null)) {
            note = appendNote(note, "shadow: " + (updated != null ? "rewrite" : kind.name().toLowerCase(java.util.Locale.ROOT))
                    + " not emitted");
            kind = Verdict.Kind.ALLOW;
            message = null;
            updated = null;
        } else if (spec.posture() == Posture.ADVISORY && (kind.decides() || updated != null)) {
            note = appendNote(note, "advisory ceiling: " + (updated != null ? "rewrite" : kind.name().toLowerCase(java.util.Locale.ROOT))
                    + " → warn");
            if (updated != null) {
                message = "would rewrite the tool input" + (message == null ? "" : ": " + message);
                updated = null;
            }
            kind = Verdict.Kind.WARN;
        }
        return new ConcernOutcome(spec.name(), raw, kind, message, durationUs, note, updated);
    }

    static String appendNote(String note, String more) {
        return note == null ? more : note + "; " + more;
    }

    /**
     * Ranked nudges: only the lowest-ranked concern that said something keeps its message. As in
     * agent-config, a blocking or fail_closed concern's message is never a nudge (never suppressed),
     * and an unranked message is always kept.
     */
    private List<ConcernOutcome> keepLowestRankedNudge(List<ConcernOutcome> outcomes) {
        ConcernOutcome winner = null;
        for (ConcernOutcome o : outcomes) {
            ConcernSpec spec = manifest.concerns().get(o.concern());
            if (isNudge(spec, o) && (winner == null || spec.nudgeRank() < manifest.concerns().get(winner.concern()).nudgeRank())) {
                winner = o;
            }
        }
        if (winner == null) {
            return outcomes;
        }
        List<ConcernOutcome> out = new ArrayList<>(outcomes.size());
        for (ConcernOutcome o : outcomes) {
            ConcernSpec spec = manifest.concerns().get(o.concern());
            if (o != winner && isNudge(spec, o)) {
                out.add(new ConcernOutcome(o.concern(), o.raw(), Verdict.Kind.ALLOW, null, o.durationUs(),
                        "nudge suppressed: rank " + spec.nudgeRank() + " yields to " + winner.concern()));
            } else {
                out.add(o);
            }
        }
        return out;
    }

    private static boolean isNudge(ConcernSpec spec, ConcernOutcome o) {
        return spec.nudgeRank() > 0 && spec.posture() != Posture.BLOCKING && !spec.failClosed()
                && o.updatedInput() == null && o.message() != null && o.effective().ordinal() <= Verdict.Kind.WARN.ordinal();
    }

    /** The agent-config envelope an external concern reads on stdin. */
    static byte[] envelope(HookEvent event, ConcernSpec spec) {
        return envelope(event, spec, null);
    }

    /**
     * The envelope, its {@code session_id} falling back to {@code fallbackSessionId}
     * ({@code $AGENT_SESSION_ID}) and then "" when the host sent none, as agent-config's does.
     */
    static byte[] envelope(HookEvent event, ConcernSpec spec, String fallbackSessionId) {
        Map<String, Object> env = Json.object();
        env.put("schema_version", 1L);
        env.put("platform", event.host());
        env.put("event", event.event().wire());
        env.put("native_event", event.nativeEvent());
        String sessionId = event.sessionId();
        if (sessionId == null || sessionId.isEmpty()) {
            sessionId = fallbackSessionId == null ? "" : fallbackSessionId;
        }
        env.put("session_id", sessionId);
        env.put("workspace_root", event.workspaceRoot());
        env.put("payload", PayloadBodies.forConcern(event, spec));
        env.put("settings", spec.settings());
        return Json.write(env).getBytes(StandardCharsets.UTF_8);
    }
}
