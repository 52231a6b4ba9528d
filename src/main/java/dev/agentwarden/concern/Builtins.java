package dev.agentwarden.concern;

import java.util.List;
import java.util.Locale;

/**
 * The registry of in-process concerns, by the name used after {@code builtin:} in a manifest.
 * A plain switch rather than a service loader: nothing reflective runs on the dispatch path.
 */
public final class Builtins {
    private Builtins() {
    }

    /** Every built-in concern name. */
    public static final List<String> NAMES = List.of(
            "block-no-verify", "deny-pattern", "context-note", "integrity-attach");

    /** A new instance of the named built-in, or {@code null} when there is none. */
    public static Concern create(String name) {
        switch (name) {
            case "block-no-verify":
                return new BlockNoVerify();
            case "deny-pattern":
                return new DenyPattern();
            case "context-note":
                return new ContextNote();
            case "integrity-attach":
                return new dev.agentwarden.integrity.IntegrityAttach();
            default:
                return null;
        }
    }

    public static boolean exists(String name) {
        return NAMES.contains(name);
    }

    /**
     * The built-in twin of an agent-config hook script path such as
     * {@code src/scripts/hooks/subagent_ledger_hook.ts}, or {@code null} when Warden ships none.
     */
    public static String twinOf(String scriptPath) {
        String prefix = "src/scripts/hooks/";
        String suffix = "_hook.ts";
        if (!scriptPath.startsWith(prefix) || !scriptPath.endsWith(suffix)) {
            return null;
        }
        String stem = scriptPath.substring(prefix.length(), scriptPath.length() - suffix.length());
        String name = stem.equals("spawn_guard_shadow") ? "spawn-guard" : stem.replace('_', '-').toLowerCase(Locale.ROOT);
        return exists(name) ? name : null;
    }
}
