package dev.agentwarden.dispatch;

import dev.agentwarden.decision.DecisionDraft;
import dev.agentwarden.decision.OpenSegments;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.trust.ResolvedManifests;
import java.time.Clock;

/**
 * Where dispatches run: the clock, and for a long-lived server the decision-log segments it keeps
 * open and the manifest in force per project it keeps while nothing it was resolved from changes.
 * {@link #respond} is the one dispatch entry: every transport (the one-shot JVM, the resident's
 * {@code /forward}, {@code warden serve} and host HTTP hooks, {@code warden test} and replay)
 * hands it a {@link DispatchRequest} and gets the {@link HostResponse} back.
 */
public final class DispatchRuntime implements AutoCloseable {
    private final Clock clock;
    /** The segments kept open, or {@code null} to open the file for each line. */
    private final OpenSegments segments;
    /** The manifests kept, or {@code null} to resolve the manifest in force for each event. */
    private final ResolvedManifests manifests;

    private DispatchRuntime(Clock clock, OpenSegments segments, ResolvedManifests manifests) {
        this.clock = clock;
        this.segments = segments;
        this.manifests = manifests;
    }

    /** One event in its own JVM: nothing kept between events. */
    public static DispatchRuntime oneShot(Clock clock) {
        return new DispatchRuntime(clock, null, null);
    }

    /** A server's runtime: segments kept open and manifests kept until {@link #close}. */
    public static DispatchRuntime longLived(Clock clock) {
        return new DispatchRuntime(clock, new OpenSegments(), new ResolvedManifests());
    }

    /** One dispatch. Never throws. */
    public HostResponse respond(DispatchRequest request) {
        return respond(request, new DecisionDraft(request.transport().wire(), clock.millis(), System.nanoTime()));
    }

    /**
     * One dispatch that fills in {@code draft}, which the caller reads afterwards ({@code warden
     * test} and replay read its verdict and chain). Never throws.
     */
    public HostResponse respond(DispatchRequest request, DecisionDraft draft) {
        return DispatchMain.respond(request, draft, this);
    }

    Clock clock() {
        return clock;
    }

    /** The manifests kept, or {@code null}. */
    ResolvedManifests manifests() {
        return manifests;
    }

    /** The segments kept open, or {@code null} for a one-shot runtime. */
    public OpenSegments segments() {
        return segments;
    }

    /** Closes the segments kept open; a dispatch still running appends its line the one-shot way. */
    @Override
    public void close() {
        if (segments != null) {
            segments.close();
        }
    }
}
