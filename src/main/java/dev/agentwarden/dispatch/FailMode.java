package dev.agentwarden.dispatch;

import java.util.Map;

/**
 * What a dispatch answers when Warden itself cannot judge the event: the runtime failure mode,
 * {@code WARDEN_FAIL_MODE} in the caller's environment, read once per event ({@link #of}) into the
 * {@link DispatchRequest}. The managed settings' {@code fail_mode}, where the administrator set one,
 * overrides it for the failures met once the managed layer is loaded (an unusable manifest, a refused
 * user layer; {@code ManagedSettings.failClosed}); an unknown host and an internal error follow the
 * variable alone.
 *
 * <p>Each failure below is answered in the host's protocol with a note on stderr, never a stack
 * trace; "refuses" means the host's block on an event it lets Warden block, and the
 * {@linkplain #OPEN open} answer (no opinion) on any other event.
 * <table>
 *   <caption>Behaviour per failure</caption>
 *   <tr><th>failure</th><th>{@link #OPEN}</th><th>{@link #CLOSED}</th></tr>
 *   <tr><td>unknown host (no adapter)</td><td>exit 0, note "Allowing"</td>
 *       <td>exit 2 (the generic hook refusal), note "Refused"</td></tr>
 *   <tr><td>manifest unusable, no managed or user layer to stand in</td><td>no opinion, "failing open"</td>
 *       <td>refuses: "Warden cannot evaluate policy (WARDEN_FAIL_MODE=closed)"</td></tr>
 *   <tr><td>user layer refused</td><td>the other layers run, with a note</td><td>refuses, as above</td></tr>
 *   <tr><td>internal error (any throwable in dispatch)</td><td>no opinion, "failing open"</td>
 *       <td>refuses, as above</td></tr>
 *   <tr><td>managed layer refused</td><td colspan="2">refuses whatever the mode</td></tr>
 *   <tr><td>payload unreadable, too large, timed out, not JSON</td>
 *       <td colspan="2">decided by the chain, not this mode: refused when a {@code fail_closed} concern
 *       guards the event, else allowed</td></tr>
 *   <tr><td>command line that does not parse</td><td colspan="2">no opinion with the usage note</td></tr>
 * </table>
 *
 * <p>The launchers ({@code bin/warden}, the compiled hook) apply the same mode when no JVM or
 * resident answers at all; the forward-protocol spec and its shared vectors pin them to this table.
 */
public enum FailMode {
    /** Warden's own failure lets the action proceed (the default). */
    OPEN("open"),
    /** Warden's own failure refuses the action where the host lets it. */
    CLOSED("closed");

    /** The variable that names the mode. */
    public static final String VARIABLE = "WARDEN_FAIL_MODE";

    private final String wire;

    FailMode(String wire) {
        this.wire = wire;
    }

    /** {@code closed} or {@code open}, as the decision line records it. */
    public String wire() {
        return wire;
    }

    /** The mode {@code env} names: exactly {@code closed} is {@link #CLOSED}; anything else, or nothing, is {@link #OPEN}. */
    public static FailMode of(Map<String, String> env) {
        return "closed".equals(env.get(VARIABLE)) ? CLOSED : OPEN;
    }
}
