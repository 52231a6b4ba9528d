package dev.agentwarden.concern;

import dev.agentwarden.guard.GuardSettings;
import dev.agentwarden.ledger.LedgerSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The registry of in-process concerns, by the name used after {@code builtin:} in a manifest.
 * A plain switch rather than a service loader: nothing reflective runs on the dispatch path.
 */
public final class Builtins {
    private Builtins() {
    }

    /** Every built-in concern name. */
    public static final List<String> NAMES = List.of(
            "block-no-verify", "deny-pattern", "context-note", "subagent-ledger", "spawn-guard", "integrity-attach");

    /** A new instance of the named built-in, or {@code null} when there is none. */
    public static Concern create(String name) {
        switch (name) {
            case "block-no-verify":
                return new BlockNoVerify();
            case "deny-pattern":
                return new DenyPattern();
            case "context-note":
                return new ContextNote();
            case "subagent-ledger":
                return new SubagentLedgerConcern();
            case "spawn-guard":
                return new SpawnGuardConcern();
            case "integrity-attach":
                return new dev.agentwarden.integrity.IntegrityAttach();
            default:
                return null;
        }
    }

    /**
     * Problems with a built-in's settings (every extra key of its manifest entry): unknown keys as
     * warnings, invalid values as errors. Empty for built-ins that do not check their settings.
     */
    public static List<SettingProblem> settingsProblems(String name, Map<String, Object> settings) {
        Set<String> known;
        Consumer<Map<String, Object>> parse;
        switch (name) {
            case "subagent-ledger":
                known = LedgerSettings.KEYS;
                parse = LedgerSettings::from;
                break;
            case "spawn-guard":
                known = GuardSettings.KEYS;
                parse = GuardSettings::from;
                break;
            default:
                return List.of();
        }
        List<SettingProblem> out = new ArrayList<>();
        for (String key : settings.keySet()) {
            if (!known.contains(key)) {
                out.add(new SettingProblem(key, "unknown setting for built-in " + name + "; its settings are "
                        + new TreeSet<>(known), true));
            }
        }
        try {
            parse.accept(settings);
        } catch (IllegalArgumentException e) {
            String msg = e.getMessage();
            int colon = msg.indexOf(": ");
            out.add(colon > 0 ? new SettingProblem(msg.substring(0, colon), msg.substring(colon + 2), false)
                    : new SettingProblem("", msg, false));
        }
        return out;
    }

    /**
     * Whether the named built-in reads or writes files (the ledger, agent files, the evidence log),
     * so that the dispatcher runs it under its deadline on a worker thread; the others only look
     * at the payload and run inline.
     */
    public static boolean touchesFiles(String name) {
        return "subagent-ledger".equals(name) || "spawn-guard".equals(name) || "integrity-attach".equals(name);
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
        if (!scriptPath.startsWith(prefix) || !scriptPath.endsWith(".ts")) {
            return null;
        }
        String stem = scriptPath.substring(prefix.length(), scriptPath.length() - ".ts".length());
        if (stem.endsWith("_hook")) {
            stem = stem.substring(0, stem.length() - "_hook".length());
        }
        String name = stem.equals("spawn_guard_shadow") ? "spawn-guard" : stem.replace('_', '-').toLowerCase(Locale.ROOT);
        return exists(name) ? name : null;
    }
}
