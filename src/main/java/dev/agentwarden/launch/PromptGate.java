package dev.agentwarden.launch;

import dev.agentwarden.integrity.AgentSelection;
import dev.agentwarden.integrity.GateSession;
import dev.agentwarden.integrity.GateVerdict;
import dev.agentwarden.integrity.IntegrityGate;
import dev.agentwarden.integrity.Outcome;
import dev.agentwarden.integrity.agentfile.AttachForm;
import dev.agentwarden.integrity.agentfile.BoundaryProfile;
import java.util.List;
import java.util.Map;

/**
 * The integrity gate applied to each model request of one launched session. The agent file is
 * selected and read once, at launch ({@link #PromptGate}); the first model request completes that
 * session, and every later request opens its own session of the same selection that adopts the
 * same read. Each session attaches exactly the payload bytes found in the request and decides.
 * A halt is final: once one request halts, every later request is refused with that outcome,
 * because a halted session stops.
 */
public final class PromptGate {
    private final IntegrityGate gate;
    private final AgentSelection selection;
    private final BoundaryProfile profile;
    private final AttachForm form;
    private final GateSession first;
    private final byte[] expected;
    private GateSession pending;
    private int requests;
    private GateVerdict halted;

    /**
     * @param first the launch session, already selected and read (LOADED)
     */
    public PromptGate(IntegrityGate gate, AgentSelection selection, BoundaryProfile profile, AttachForm form,
                      GateSession first) {
        this.gate = gate;
        this.selection = selection;
        this.profile = profile;
        this.form = form;
        this.pending = first;
        this.first = first;
        this.expected = form.apply(first.readBytes());
    }

    /**
     * What the gate decided for one request.
     *
     * @param verdict   the session's verdict
     * @param request   the request's number in this launch, from 1
     * @param where     where the payload was found, or {@code null}
     * @param repeated  whether this is the earlier halt repeated, not a new evaluation
     */
    public record Decision(GateVerdict verdict, int request, String where, boolean repeated) {
        public boolean forwards() {
            Outcome o = verdict.outcome();
            return !repeated && (o == Outcome.LOADED || o == Outcome.LOADED_WITH_REPORT);
        }
    }

    /** Gates one model request. */
    public synchronized Decision check(ModelWire wire, Map<String, Object> request) {
        int n = ++requests;
        if (halted != null) {
            return new Decision(halted, n, null, true);
        }
        GateSession session = pending;
        pending = null;
        if (session == null) {
            session = gate.select(selection.withHostSessionId(hostSession(n)));
            session.adoptRead(first);
        }
        List<ModelWire.SystemText> texts = wire.systemTexts(request);
        PromptLocator.Located found = PromptLocator.locate(texts, expected, profile);
        String channel = "proxy." + wire.label() + " request " + n;
        if (found == null) {
            session.notAttached("not_in_request: no boundary marker of the agent in the request's "
                    + texts.size() + " system text(s)", channel);
        } else {
            session.attachForm(found.bytes(), form, channel + " " + found.where() + " (" + found.note() + ")");
        }
        GateVerdict verdict = session.verdict();
        if (verdict.halts()) {
            halted = verdict;
        }
        return new Decision(verdict, n, found == null ? null : found.where(), false);
    }

    /**
     * Closes the launch session when the host made no model request: with no attach result it is
     * UNKNOWN_HALT, since nothing shows what the host sent, or where. Returns {@code null} when a
     * request already completed it.
     */
    public synchronized GateVerdict finishUnused() {
        if (pending == null) {
            return null;
        }
        GateVerdict v = pending.verdict();
        pending = null;
        return v;
    }

    /** The first halt, or {@code null}. */
    public synchronized GateVerdict halted() {
        return halted;
    }

    /** Model requests gated so far. */
    public synchronized int requests() {
        return requests;
    }

    private String hostSession(int n) {
        String base = selection.hostSessionId();
        return (base == null ? "proxy" : base) + "#request-" + n;
    }
}
