package dev.agentwarden.dispatch;

import java.util.List;

/**
 * The one decision a dispatch returns for an event, whatever the host.
 *
 * @param kind    the strongest decision in the chain
 * @param reason  why, for {@code BLOCK} and {@code HALT}: the deciding concerns' reasons joined
 *                with " · "; {@code null} otherwise
 * @param context text for the model when nothing blocks: warnings and built-ins' context notes
 *                joined with " · ", or {@code null}
 */
public record Verdict(Kind kind, String reason, String context) {

    /** Decision kinds in increasing precedence: halt > block > warn > allow. */
    public enum Kind { ALLOW, WARN, BLOCK, HALT }

    public static final String DEFAULT_BLOCK_REASON = "blocked by hook policy";

    public static final Verdict NO_OPINION = new Verdict(Kind.ALLOW, null, null);

    public static Verdict block(String reason) {
        return new Verdict(Kind.BLOCK, reason, null);
    }

    /**
     * Combines concern outcomes, in chain order, into one verdict, as agent-config does: the
     * strongest kind wins and its concerns' messages decide (joined with " · "); on a block or
     * halt the warnings are not sent, otherwise context gathers every warning and note.
     */
    public static Verdict combine(List<ConcernOutcome> outcomes) {
        Kind kind = Kind.ALLOW;
        for (ConcernOutcome o : outcomes) {
            if (o.effective().ordinal() > kind.ordinal()) {
                kind = o.effective();
            }
        }
        StringBuilder reasons = new StringBuilder();
        StringBuilder context = new StringBuilder();
        for (ConcernOutcome o : outcomes) {
            if (o.message() == null || o.message().isEmpty()) {
                continue;
            }
            if (o.effective() == kind && (kind == Kind.BLOCK || kind == Kind.HALT)) {
                append(reasons, " · ", o.message());
            } else if (kind != Kind.BLOCK && kind != Kind.HALT
                    && (o.effective() == Kind.WARN || o.effective() == Kind.ALLOW)) {
                append(context, " · ", o.message());
            }
        }
        String reason = null;
        if (kind == Kind.BLOCK || kind == Kind.HALT) {
            reason = reasons.length() == 0 ? DEFAULT_BLOCK_REASON : reasons.toString();
        }
        return new Verdict(kind, reason, context.length() == 0 ? null : context.toString());
    }

    private static void append(StringBuilder sb, String separator, String text) {
        if (sb.length() > 0) {
            sb.append(separator);
        }
        sb.append(text);
    }
}
