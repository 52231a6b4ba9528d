package dev.agentwarden.verdict;

import java.util.List;
import java.util.Map;

/**
 * The one decision a dispatch returns for an event, whatever the host.
 *
 * @param kind    the strongest decision in the chain
 * @param reason  why, for {@code ASK}, {@code BLOCK} and {@code HALT}: the deciding concerns' reasons
 *                joined with " · "; {@code null} otherwise
 * @param context text for the model when nothing blocks: warnings and built-ins' context notes
 *                joined with " · ", or {@code null}
 * @param updatedInput the tool input the host is to run instead of the one it sent (the first rewrite in
 *                chain order), only on {@code ALLOW} and {@code WARN}; else {@code null}
 * @param rewrittenBy the concern whose rewrite this is, or {@code null}
 */
public record Verdict(Kind kind, String reason, String context, Map<String, Object> updatedInput, String rewrittenBy) {

    /** A verdict that rewrites nothing. */
    public Verdict(Kind kind, String reason, String context) {
        this(kind, reason, context, null, null);
    }

    /**
     * Decision kinds in increasing precedence: halt > block (deny) > ask > warn > allow. {@code ASK}
     * is a permission-style host's "let the user confirm"; a host that cannot ask on an event
     * downgrades it as its capability table says.
     */
    public enum Kind {
        ALLOW, WARN, ASK, BLOCK, HALT;

        /** Whether this kind carries a reason (it refuses, or asks before allowing). */
        public boolean decides() {
            return this == ASK || this == BLOCK || this == HALT;
        }
    }

    /** What one concern run adds to a verdict: its effective kind and its message, or {@code null}. */
    public interface Contribution {
        Kind effective();

        String message();

        /** The tool input this run would have the host run instead, or {@code null}. */
        default Map<String, Object> updatedInput() {
            return null;
        }

        /** Who contributed it (the concern's name), or {@code null}. */
        default String name() {
            return null;
        }
    }

    public static final String DEFAULT_BLOCK_REASON = "blocked by hook policy";

    public static final Verdict NO_OPINION = new Verdict(Kind.ALLOW, null, null);

    /** What stands for a reason or context in {@link #textless()}: a fixed label, never the text. */
    public static final String WITHHELD = "[text withheld]";

    /**
     * This verdict with its reason and context replaced by {@link #WITHHELD} (a {@code null} stays
     * {@code null}): what an adapter renders from it says nothing a concern wrote, for a record
     * that must not hold concern text (a decision log whose reasons are hashed).
     */
    public Verdict textless() {
        return new Verdict(kind, reason == null ? null : WITHHELD, context == null ? null : WITHHELD);
    }

    public static Verdict block(String reason) {
        return new Verdict(Kind.BLOCK, reason, null);
    }

    /**
     * Combines contributions, in chain order, into one verdict, as agent-config does: the strongest
     * kind wins and its contributions' messages decide (joined with " · "); on a block or halt the
     * warnings are not sent, otherwise context gathers every warning and note. The first
     * contribution that rewrites the tool input (in chain order) carries its input into an
     * {@code ALLOW} or {@code WARN} verdict; a stronger verdict drops it.
     */
    public static Verdict combine(List<? extends Contribution> outcomes) {
        Kind kind = Kind.ALLOW;
        for (int i = 0; i < outcomes.size(); i++) {
            Kind k = outcomes.get(i).effective();
            if (k.ordinal() > kind.ordinal()) {
                kind = k;
            }
        }
        StringBuilder reasons = new StringBuilder();
        StringBuilder context = new StringBuilder();
        for (int i = 0; i < outcomes.size(); i++) {
            Contribution o = outcomes.get(i);
            if (o.message() == null || o.message().isEmpty()) {
                continue;
            }
            if (o.effective() == kind && kind.decides()) {
                append(reasons, " · ", o.message());
            } else if (kind != Kind.BLOCK && kind != Kind.HALT
                    && (o.effective() == Kind.WARN || o.effective() == Kind.ALLOW)) {
                append(context, " · ", o.message());
            }
        }
        String reason = null;
        if (kind.decides()) {
            reason = reasons.length() == 0 ? DEFAULT_BLOCK_REASON : reasons.toString();
        }
        Map<String, Object> updated = null;
        String by = null;
        if (kind == Kind.ALLOW || kind == Kind.WARN) {
            for (int i = 0; i < outcomes.size() && updated == null; i++) {
                updated = outcomes.get(i).updatedInput();
                by = updated == null ? null : outcomes.get(i).name();
            }
        }
        return new Verdict(kind, reason, context.length() == 0 ? null : context.toString(), updated, by);
    }

    /** Whether the host is to run a rewritten tool input. */
    public boolean rewrites() {
        return updatedInput != null;
    }

    private static void append(StringBuilder sb, String separator, String text) {
        if (sb.length() > 0) {
            sb.append(separator);
        }
        sb.append(text);
    }
}
