package dev.agentwarden.dispatch;

import dev.agentwarden.concern.Decision;
import dev.agentwarden.concern.Escalation;
import dev.agentwarden.decision.ConcernOutcome;
import dev.agentwarden.strike.Strikes;
import dev.agentwarden.verdict.Verdict;
import java.nio.file.Path;

/**
 * One dispatch's dealings with its session's strikes ({@link Strikes}): the store is read once, when
 * an escalating concern refuses, and one strike is recorded when the chain refused the event. A
 * strike is an event some concern refused by its own decision ({@code block} or {@code halt}, in
 * posture {@code blocking}); an {@code ask}, a warning, a shadow concern's would-block and a
 * {@code fail_closed} refusal of a concern that could not run are none. Without a session id, or in
 * replay, nothing is read or written and nothing escalates.
 */
final class SessionStrikes {
    private final Path stateHome;
    private final String session;
    private final long now;
    /** Whether this event's session keeps strikes: it has an id, and this is no replay. */
    private final boolean kept;
    /** The session's strikes before this event, or {@code null} until read (or when unreadable). */
    private long[] past;
    private String unreadable;
    /** The session's strikes once this event's is recorded, or {@code null}. */
    private long[] recorded;
    /** The longest window of the escalations met on the chain, 0 when none. */
    private long windowMs;
    private Decision escalated;

    SessionStrikes(Path stateHome, String session, long now, boolean live) {
        this.stateHome = stateHome;
        this.session = session;
        this.now = now;
        this.kept = live && session != null && !session.isEmpty();
    }

    /**
     * {@code outcome} with {@code escalation} applied: a {@code block} of a concern whose session
     * holds at least {@link Escalation#after} strikes within its window becomes its step, with a
     * reason and a note that say so; any other outcome is unchanged.
     */
    ConcernOutcome escalate(Escalation escalation, ConcernOutcome outcome) {
        windowMs = Math.max(windowMs, escalation.withinMs());
        if (!kept || outcome.effective() != Verdict.Kind.BLOCK || outcome.raw().decision() != Decision.BLOCK) {
            return outcome;
        }
        if (past == null && unreadable == null) {
            try {
                past = Strikes.read(stateHome, session, now);
            } catch (Strikes.Failed e) {
                unreadable = e.getMessage();
            }
        }
        if (past == null) {
            return withNote(outcome, "escalation not checked: " + unreadable);
        }
        int n = Strikes.count(past, now, escalation.withinMs());
        if (n < escalation.after()) {
            return outcome;
        }
        if (escalated == null || escalation.then() == Decision.HALT) {
            escalated = escalation.then();
        }
        String why = "escalated to " + escalation.thenWire() + ": " + n + (n == 1 ? " strike" : " strikes")
                + " in this session within " + escalation.withinWire();
        Verdict.Kind kind = escalation.then() == Decision.HALT ? Verdict.Kind.HALT : Verdict.Kind.ASK;
        String message = outcome.message() == null ? why : outcome.message() + " (" + why + ")";
        return new ConcernOutcome(outcome.concern(), outcome.raw(), kind, message, outcome.durationUs(),
                Dispatcher.appendNote(outcome.note(), why), outcome.updatedInput());
    }

    /** Records this event as a strike; returns {@code null}, or a note saying why it could not be recorded. */
    String record() {
        if (!kept) {
            return null;
        }
        try {
            recorded = Strikes.record(stateHome, session, now);
            return null;
        } catch (Strikes.Failed e) {
            return "strike not recorded: " + e.getMessage();
        }
    }

    /**
     * The session's strikes with this event counted, within the longest escalation window met on
     * the chain ({@link Strikes#DEFAULT_WINDOW_MS} when none); 0 when nothing was read or recorded.
     */
    int count() {
        long window = windowMs > 0 ? windowMs : Strikes.DEFAULT_WINDOW_MS;
        long[] times = recorded != null ? recorded : past;
        return times == null ? 0 : Strikes.count(times, now, window);
    }

    /** The step an escalation turned a refusal into ({@code ask} or {@code halt}, the stronger), or {@code null}. */
    String escalated() {
        return escalated == null ? null : escalated == Decision.HALT ? "halt" : "ask";
    }

    /** {@code o} with {@code note} added to its note. */
    static ConcernOutcome withNote(ConcernOutcome o, String note) {
        return new ConcernOutcome(o.concern(), o.raw(), o.effective(), o.message(), o.durationUs(),
                Dispatcher.appendNote(o.note(), note), o.updatedInput());
    }
}
