package dev.agentwarden.decision;

import dev.agentwarden.verdict.Verdict;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.host.HostAdapter;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.manifest.Manifest;

/**
 * What one dispatch has established so far, filled in as it goes, so that every return (the
 * chain's verdict or an early one) becomes one decision line ({@link DecisionLog#append}).
 * Fields stay {@code null} until known; a draft without a project root is not written.
 */
public final class DecisionDraft {
    final String transport;
    final long epochMillis;
    final long startNanos;
    String host;
    String root;
    String nativeEvent;
    String event;
    String role;
    Manifest manifest;
    Manifest managed;
    /** The user's layer: its source, its manifest when in force, why it was refused otherwise ({@code null} without one). */
    String userSource;
    Manifest user;
    String userRefused;
    /** Days of decision log the managed settings keep ({@code retention}), 0 for no limit. */
    int retentionDays;
    HookEvent hookEvent;
    ChainResult result;
    String downgrades;
    /** Renders {@link #result}'s verdict again without its text, for a log whose reasons are hashed. */
    HostAdapter adapter;
    Verdict.Kind verdict;
    String failMode;
    String problem;
    String manifestFallback;
    java.util.List<String> chainSkipped;
    /** The hook's W3C {@code TRACEPARENT}, when its environment carried a well-formed one; else {@code null}. */
    String traceparent;

    /**
     * @param transport   how the event reached this dispatch: {@link DecisionLog#OWN_JVM},
     *                    {@link DecisionLog#RESIDENT} or {@link DecisionLog#SERVE}
     * @param epochMillis when the dispatch began, from the injected clock
     * @param startNanos  {@link System#nanoTime()} then, for the elapsed time
     */
    public DecisionDraft(String transport, long epochMillis, long startNanos) {
        this.transport = transport;
        this.epochMillis = epochMillis;
        this.startNanos = startNanos;
    }

    public void host(String host) {
        this.host = host;
    }

    /** The project root the state is written under, the native event when known, and the role. */
    public void at(String root, String nativeEvent, String role) {
        this.root = root;
        this.nativeEvent = nativeEvent;
        this.role = role;
    }

    public void manifest(Manifest manifest) {
        this.manifest = manifest;
    }

    /** The administrator's manifest laid under the one in force ({@code dev.agentwarden.managed}), or none. */
    public void managed(Manifest managed) {
        this.managed = managed;
    }

    /** The managed {@code retention}: on a segment's creation, segments older than that many days are removed. */
    public void retentionDays(int days) {
        this.retentionDays = days;
    }

    /**
     * The user's manifest ({@code ~/.config/agent-warden/manifest.yaml}) laid under the project's:
     * {@code manifest} when in force, else {@code refused} says why it is not.
     */
    public void userLayer(String source, Manifest manifest, String refused) {
        this.userSource = source;
        this.user = manifest;
        this.userRefused = refused;
    }

    /**
     * The project's manifest is not in force and another one stands in, as
     * {@code <last_trusted|default>:<untrusted|does_not_compile>}; {@code null} when it is in force.
     */
    public void manifestFallback(String fallback) {
        this.manifestFallback = fallback;
    }

    /**
     * The entries the manifest compiled out of this event's chain ({@link Manifest#skipped}): an
     * unknown concern, one listed twice; the rest of the chain ran.
     */
    public void chainSkipped(java.util.List<String> entries) {
        this.chainSkipped = entries;
    }

    /** The canonical event ({@code pre_tool_use}) and the native one. */
    public void event(String event, String nativeEvent) {
        this.event = event;
        this.nativeEvent = nativeEvent;
    }

    /**
     * The chain ran: its result, and {@code adapter}'s rendering of the verdict on the native event
     * before concern notes were added (whose stderr lines are the downgrades the adapter applied).
     */
    public void ran(HookEvent hookEvent, ChainResult result, HostAdapter adapter, HostResponse rendered) {
        this.hookEvent = hookEvent;
        this.result = result;
        this.adapter = adapter;
        this.verdict = result.verdict().kind();
        this.downgrades = rendered.stderr();
    }

    /**
     * The adapter's downgrade notes as the log may hold them: as rendered when reasons are
     * verbatim; otherwise from the verdict rendered again {@linkplain Verdict#textless() without its
     * text}, so no reason or context a concern wrote (any line of it) is in them.
     */
    String downgradeNotes(boolean verbatim) {
        if (verbatim || downgrades == null || downgrades.isEmpty()) {
            return downgrades;
        }
        if (adapter == null || result == null || nativeEvent == null) {
            return null;
        }
        return adapter.render(nativeEvent, result.verdict().textless()).stderr();
    }

    /**
     * The final verdict as the decision line records it ({@code allow|warn|block|halt}): the one
     * the chain reached, or the one an early return answered ({@link #ended}, {@link #answered}).
     */
    public String verdict() {
        return verdict == null ? null : verdict.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The chain's result, or {@code null} when the dispatch ended before the chain ran. */
    public ChainResult result() {
        return result;
    }

    /** Why the dispatch ended early ({@code manifest_unusable}, {@code unknown_event}, ...), or {@code null}. */
    public String problem() {
        return problem;
    }

    /** The manifest the dispatch loaded, or {@code null}. */
    public Manifest manifest() {
        return manifest;
    }

    /**
     * The dispatch ended before the chain, or instead of it.
     *
     * @param problem  a code: {@code manifest_unusable}, {@code payload_not_json}, {@code unknown_event}, ...
     * @param failMode {@code open} or {@code closed} when the runtime fail mode decided, else {@code null}
     * @param verdict  the verdict answered
     */
    public void ended(String problem, String failMode, Verdict.Kind verdict) {
        this.problem = problem;
        this.failMode = failMode;
        this.verdict = verdict;
    }

    /**
     * The dispatch answered {@code verdict} before it knew the project (a command line that does not
     * parse, a host without an adapter): no line is written, but {@code warden test} reads it.
     */
    public void answered(Verdict.Kind verdict) {
        this.verdict = verdict;
    }
}
