package dev.agentwarden.dispatch;

import dev.agentwarden.decision.ChainResult;
import dev.agentwarden.host.HostAdapter;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.json.Json;
import dev.agentwarden.verdict.Verdict;

/**
 * A chain's rewrite meets the host's capability: where the host runs a rewritten tool input the
 * verdict stands; where it cannot, the rewrite becomes a refusal whose reason says what would have
 * run, so the original input never runs unreviewed.
 */
final class RewriteGate {
    /** Longest rendering of the rewritten input in a refusal's reason. */
    static final int MAX_SHOWN_CHARS = 500;

    private RewriteGate() {
    }

    /** {@code result}, or its refusal when it rewrites and {@code capability} cannot. */
    static ChainResult settle(ChainResult result, HostAdapter.Capability capability, String hostName,
                              String nativeEvent) {
        Verdict v = result.verdict();
        if (!v.rewrites() || capability.canRewrite()) {
            return result;
        }
        String reason = "rewrite not supported on " + hostName + " " + nativeEvent + "; would have run: " + shown(v);
        // as on any refusal, the chain's warnings and the rewrite's own note are not sent
        return new ChainResult(Verdict.block(reason), result.outcomes(), result.strikes(), result.escalated());
    }

    /** The stderr note for a refused rewrite, or {@code null} when {@code before} was not refused by {@link #settle}. */
    static String note(ChainResult before, ChainResult after) {
        if (before == after) {
            return null;
        }
        return "warden: " + before.verdict().rewrittenBy() + ": " + after.verdict().reason() + " (refused instead)";
    }

    /** The rewritten command when the input has one, else the input as JSON, cut short. */
    private static String shown(Verdict v) {
        Object command = v.updatedInput().get("command");
        String text = command instanceof String s ? s : Json.write(v.updatedInput());
        return HostResponse.capped(text, MAX_SHOWN_CHARS);
    }
}
