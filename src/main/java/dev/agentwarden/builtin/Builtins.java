package dev.agentwarden.builtin;

import dev.agentwarden.concern.Concern;
import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.concern.SettingProblem;
import dev.agentwarden.event.EventName;
import dev.agentwarden.guard.GuardSettings;
import dev.agentwarden.inventory.TurnInventory;
import dev.agentwarden.inventory.TurnInventorySettings;
import dev.agentwarden.ledger.LedgerSettings;
import dev.agentwarden.rule.Rules;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The in-process concerns, one {@link BuiltinDescriptor} each, by the name used after
 * {@code builtin:} in a manifest. Plain classes rather than a service loader or lambdas: nothing
 * reflective or bootstrapped runs on the dispatch path, and a built-in's settings classes load
 * only where it is bound.
 */
public final class Builtins {
    private Builtins() {
    }

    private static final Set<EventName> TOOL_DECISIONS = Set.of(EventName.PRE_TOOL_USE, EventName.PERMISSION_REQUEST);

    private static final BuiltinDescriptor BLOCK_NO_VERIFY = new BuiltinDescriptor("block-no-verify",
            List.of(), TOOL_DECISIONS) {
        @Override
        public Concern create(Object settings) {
            return new BlockNoVerify();
        }
    };

    private static final BuiltinDescriptor PROTECT_WARDEN = new BuiltinDescriptor("protect-warden",
            List.of(), TOOL_DECISIONS) {
        @Override
        public Concern create(Object settings) {
            return new ProtectWarden();
        }
    };

    private static final BuiltinDescriptor DENY_PATTERN = new BuiltinDescriptor("deny-pattern",
            List.of(new BuiltinDescriptor.Setting("patterns", "list of {match: regex, reason: text}", "required")),
            Set.of()) {
        @Override
        public Object parse(Map<String, Object> settings) {
            return DenyRules.parse(settings);
        }

        @Override
        public Concern create(Object settings) {
            return new DenyPattern((DenyRules) settings);
        }
    };

    private static final BuiltinDescriptor CONTEXT_NOTE = new BuiltinDescriptor("context-note",
            List.of(new BuiltinDescriptor.Setting("message", "text", "none: emits nothing"),
                    new BuiltinDescriptor.Setting("as", "warn | context", "warn")),
            Set.of()) {
        @Override
        public Object parse(Map<String, Object> settings) {
            return ContextNote.Settings.parse(settings);
        }

        @Override
        public Concern create(Object settings) {
            return new ContextNote((ContextNote.Settings) settings);
        }
    };

    private static final BuiltinDescriptor SUBAGENT_LEDGER = new BuiltinDescriptor("subagent-ledger",
            List.of(new BuiltinDescriptor.Setting("ttl", "duration", "24h"),
                    new BuiltinDescriptor.Setting("stop_loss_arms", "list of durations", "[5m, 15m, 30m, 2h]"),
                    new BuiltinDescriptor.Setting("duration_budgets", "mapping of agent type to duration", "none")),
            Set.of(EventName.SUBAGENT_START, EventName.SUBAGENT_STOP, EventName.PRE_TOOL_USE, EventName.POST_TOOL_USE)) {
        @Override
        public Object parse(Map<String, Object> settings) {
            return LedgerSettings.from(settings);
        }

        @Override
        public Concern create(Object settings) {
            return new SubagentLedgerConcern((LedgerSettings) settings);
        }
    };

    private static final BuiltinDescriptor SPAWN_GUARD = new BuiltinDescriptor("spawn-guard",
            List.of(new BuiltinDescriptor.Setting("candidates", "list of {label, max_depth, max_concurrent}", "n2m4, n3m6, n4m8"),
                    new BuiltinDescriptor.Setting("enforce", "candidate label", "the first candidate"),
                    new BuiltinDescriptor.Setting("dispatch_tools", "list of tool names", "the host's subagent-dispatch tools"),
                    new BuiltinDescriptor.Setting("concurrency_scope", "session | workspace", "session"),
                    new BuiltinDescriptor.Setting("ttl", "duration", "24h")),
            Set.of(EventName.PRE_TOOL_USE)) {
        @Override
        public Object parse(Map<String, Object> settings) {
            return GuardSettings.from(settings);
        }

        @Override
        public Concern create(Object settings) {
            return new SpawnGuardConcern((GuardSettings) settings);
        }
    };

    private static final BuiltinDescriptor INTEGRITY_ATTACH = new BuiltinDescriptor(IntegrityAttach.NAME,
            List.of(new BuiltinDescriptor.Setting("agent", "agent id", "required"),
                    new BuiltinDescriptor.Setting("file", "path", "resolved from the workspace root"),
                    new BuiltinDescriptor.Setting("role", "text", "none"),
                    new BuiltinDescriptor.Setting("profile", "squad | markers | none", "squad"),
                    new BuiltinDescriptor.Setting("head_marker", "text", "none"),
                    new BuiltinDescriptor.Setting("eof_marker", "text", "none"),
                    new BuiltinDescriptor.Setting("release_manifest", "path", "none"),
                    new BuiltinDescriptor.Setting("trust_root", "path", "none"),
                    new BuiltinDescriptor.Setting("agent_version", "text", "none"),
                    new BuiltinDescriptor.Setting("client_id", "text", "claude-code"),
                    new BuiltinDescriptor.Setting("client_version", "text", "none"),
                    new BuiltinDescriptor.Setting("require_trusted_manifest", "boolean", "false"),
                    new BuiltinDescriptor.Setting("max_chars", "integer", "the host's output cap"),
                    new BuiltinDescriptor.Setting("max_bytes", "integer", "1048576"),
                    new BuiltinDescriptor.Setting("sources", "list of SessionStart sources", "all")),
            Set.of(EventName.SESSION_START, EventName.USER_PROMPT_SUBMIT)) {
        @Override
        public Object parse(Map<String, Object> settings) {
            return AttachSettings.from(settings);
        }

        @Override
        public Concern create(Object settings) {
            return new IntegrityAttach((AttachSettings) settings);
        }
    };

    private static final BuiltinDescriptor INVENTORY_TURNS = new BuiltinDescriptor(TurnInventory.NAME,
            List.of(new BuiltinDescriptor.Setting("prereg", "path", "none: snapshots are stored unclassified"),
                    new BuiltinDescriptor.Setting("hosts", "list of claude, codex, gemini, copilot, cursor", "the event's host"),
                    new BuiltinDescriptor.Setting("capabilities", "list of roots, sampling, elicitation, elicitation-url",
                            "[roots, sampling, elicitation]"),
                    new BuiltinDescriptor.Setting("wait_ms", "duration", "3s (at most 30s)"),
                    new BuiltinDescriptor.Setting("ttl", "duration", "10m"),
                    new BuiltinDescriptor.Setting("allow_project_servers", "boolean", "false")),
            Set.of(EventName.SESSION_START, EventName.USER_PROMPT_SUBMIT)) {
        @Override
        public Object parse(Map<String, Object> settings) {
            return TurnInventorySettings.from(settings);
        }

        @Override
        public Concern create(Object settings) {
            return new TurnInventory((TurnInventorySettings) settings);
        }
    };

    /**
     * A CEL rule (docs/rules.md). Its settings compile in {@code dev.agentwarden.rule}, which alone
     * loads the CEL library: nothing of it loads unless a manifest binds a rule.
     */
    private static final BuiltinDescriptor RULE = new BuiltinDescriptor(Rules.NAME,
            List.of(new BuiltinDescriptor.Setting("when", "CEL condition over the event view", "required"),
                    new BuiltinDescriptor.Setting("action", "allow | deny | ask | warn | halt | rewrite", "required"),
                    new BuiltinDescriptor.Setting("reason", "text naming fields as {field}", "rule <name> (<action>)"),
                    new BuiltinDescriptor.Setting("rewrite", "mapping of tool-input field to CEL string expression",
                            "none; required with action: rewrite"),
                    new BuiltinDescriptor.Setting("prereg", "inventory preregistration file the mcp.drift fields read",
                            "none; required when the rule reads mcp.drift.*")),
            Set.of()) {
        @Override
        public Object parse(Map<String, Object> settings) {
            return Rules.parse(settings);
        }

        @Override
        public String cannotRunOn(EventName event, Map<String, Object> settings) {
            return Rules.cannotRunOn(event, settings);
        }

        @Override
        public Concern create(Object settings) {
            return Rules.create(settings);
        }
    };

    /** Every built-in. */
    public static final List<BuiltinDescriptor> ALL = List.of(
            BLOCK_NO_VERIFY, PROTECT_WARDEN, DENY_PATTERN, CONTEXT_NOTE, SUBAGENT_LEDGER, SPAWN_GUARD, INTEGRITY_ATTACH,
            INVENTORY_TURNS, RULE);

    /** Every built-in concern name. */
    public static final List<String> NAMES = names();

    private static List<String> names() {
        List<String> out = new ArrayList<>();
        for (BuiltinDescriptor d : ALL) {
            out.add(d.name());
        }
        return List.copyOf(out);
    }

    /** The descriptor of a built-in, or {@code null} when there is none. */
    public static BuiltinDescriptor descriptor(String name) {
        for (BuiltinDescriptor d : ALL) {
            if (d.name().equals(name)) {
                return d;
            }
        }
        return null;
    }

    /**
     * Whether the named built-in reads or writes files (the ledger, agent files, the evidence log),
     * so that the dispatcher runs it under its deadline on a worker thread; the others only look
     * at the payload and run inline.
     */
    public static boolean touchesFiles(String name) {
        return "subagent-ledger".equals(name) || "spawn-guard".equals(name) || "integrity-attach".equals(name)
                || TurnInventory.NAME.equals(name);
    }

    public static boolean exists(String name) {
        return descriptor(name) != null;
    }

    /**
     * A new instance of the concern a built-in spec runs as, its settings parsed (the compiler
     * checked them already). Dispatch builds each once per manifest ({@code Manifest.built}).
     *
     * @throws IllegalArgumentException for an unknown built-in or settings that do not parse
     */
    public static Concern create(ConcernSpec spec) {
        BuiltinDescriptor d = descriptor(spec.builtinName());
        if (d == null) {
            throw new IllegalArgumentException("unknown built-in " + spec.builtinName());
        }
        return d.create(d.parse(spec.settings()));
    }

    /**
     * The first invalid value among a built-in's declared settings, as its descriptor's parse step
     * reports it; empty when they parse. Unknown keys are the caller's to report.
     */
    public static List<SettingProblem> settingsProblems(BuiltinDescriptor d, Map<String, Object> settings) {
        try {
            d.parse(settings);
            return List.of();
        } catch (IllegalArgumentException e) {
            String msg = e.getMessage() == null ? e.toString() : e.getMessage();
            int colon = msg.indexOf(": ");
            return List.of(colon > 0 ? new SettingProblem(msg.substring(0, colon), msg.substring(colon + 2), false)
                    : new SettingProblem("", msg, false));
        }
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
