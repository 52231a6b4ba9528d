package dev.agentwarden.manifest;

import static dev.agentwarden.manifest.ManifestNodes.describe;
import static dev.agentwarden.manifest.ManifestNodes.plain;
import static dev.agentwarden.manifest.ManifestNodes.scalar;

import dev.agentwarden.builtin.BuiltinDescriptor;
import dev.agentwarden.builtin.Builtins;
import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.concern.Escalation;
import dev.agentwarden.concern.Posture;
import dev.agentwarden.concern.SettingProblem;
import dev.agentwarden.text.NearMiss;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;

/**
 * The schema of a manifest's {@code concerns:} block: each entry's keys and values checked and read
 * into a {@link ConcernSpec} (script or built-in, posture, limits, escalation, settings), and the
 * {@code nudge_rank} values checked unique across all of them.
 */
final class ConcernSchema {
    /** The keys every concern entry may carry; a built-in's own settings sit beside them. */
    static final List<String> CONCERN_KEYS = List.of(
            "script", "args", "fail_closed", "severity", "posture", "tools", "timeout_ms",
            "skip_on_refusal_retry", "nudge_rank", "needs_payload_bodies", "escalate");
    /** A process concern's free-form settings, passed to it in the envelope. */
    private static final String SETTINGS_KEY = "settings";

    private final ManifestNodes yaml;
    /** The project root command scripts resolve against, when missing scripts are to be reported. */
    private final Path scriptRoot;
    /** Where each concern's {@code nudge_rank} value sits, for the uniqueness check after reading all. */
    private final Map<String, Node> rankNodes = new HashMap<>();

    ConcernSchema(ManifestNodes yaml, Path scriptRoot) {
        this.yaml = yaml;
        this.scriptRoot = scriptRoot;
    }

    /** The concerns by name; with {@code extendsDefault} a manifest may leave the block out. */
    Map<String, ConcernSpec> read(NodeTuple t, boolean extendsDefault) {
        Map<String, ConcernSpec> out = new LinkedHashMap<>();
        if (t == null) {
            if (!extendsDefault) {
                yaml.error("missing-key", null, "concerns", "missing", true);
            }
            return out;
        }
        if (!(t.getValueNode() instanceof MappingNode map)) {
            yaml.error("wrong-type", t.getValueNode(), "concerns", "must be a mapping of concern name to definition", true);
            return out;
        }
        yaml.entries(map, "concerns").forEach((name, entry) -> {
            ConcernSpec spec = readConcern("concerns." + name, name, entry.getValueNode());
            if (spec != null) {
                out.put(name, spec);
            }
        });
        return out;
    }

    private ConcernSpec readConcern(String path, String name, Node node) {
        if (!(node instanceof MappingNode map)) {
            yaml.error("wrong-type", node, path, "a concern is a mapping with at least script:", true);
            return null;
        }
        Map<String, NodeTuple> keys = yaml.entries(map, path);
        NodeTuple scriptNode = keys.get("script");
        if (keys.containsKey("nudge_rank")) {
            rankNodes.put(name, keys.get("nudge_rank").getValueNode());
        }
        String script = scriptNode == null ? null : yaml.string(scriptNode.getValueNode(), path + ".script", true);
        if (scriptNode == null) {
            yaml.error("missing-key", node, path + ".script", "missing script", true);
        }
        Posture fromPath = null;
        if (script != null) {
            if (script.startsWith(ConcernSpec.BUILTIN_PREFIX)) {
                String builtin = script.substring(ConcernSpec.BUILTIN_PREFIX.length());
                if (!Builtins.exists(builtin)) {
                    yaml.error("unknown-builtin", scriptNode.getValueNode(), path + ".script", "unknown built-in '" + builtin
                            + "'; built-ins are " + Builtins.NAMES + NearMiss.hint(builtin, Builtins.NAMES), true);
                }
            } else {
                String twin = Builtins.twinOf(script);
                if (twin != null) {
                    fromPath = script.endsWith("spawn_guard_shadow_hook.ts") ? Posture.SHADOW : null;
                    script = ConcernSpec.BUILTIN_PREFIX + twin;
                } else if (scriptRoot != null) {
                    ScriptCheck.Problem problem = ScriptCheck.problem(scriptRoot.resolve(script));
                    if (problem != null) {
                        yaml.error(problem.kind().code(), scriptNode.getValueNode(), path + ".script", problem.message()
                                + (problem.kind() == ScriptCheck.Kind.MISSING ? " (and no built-in twin; built-ins are "
                                + Builtins.NAMES + ")" : ""), false);
                    }
                }
            }
        }
        List<String> args = yaml.stringList(keys.get("args"), path + ".args");
        boolean failClosed = yaml.bool(keys.get("fail_closed"), path + ".fail_closed", false);
        Posture severity = null;
        if (keys.containsKey("severity")) {
            String s = yaml.string(keys.get("severity").getValueNode(), path + ".severity", false);
            severity = "advisory".equals(s) ? Posture.ADVISORY : "blocking".equals(s) ? Posture.BLOCKING : null;
            if (s != null && severity == null) {
                yaml.error("bad-value", keys.get("severity").getValueNode(), path + ".severity", "must be advisory or blocking, found '" + s + "'", true);
            }
        }
        Posture posture = null;
        if (keys.containsKey("posture")) {
            String s = yaml.string(keys.get("posture").getValueNode(), path + ".posture", false);
            posture = Posture.fromWire(s);
            if (s != null && posture == null) {
                yaml.error("bad-value", keys.get("posture").getValueNode(), path + ".posture", "must be shadow, advisory or blocking, found '" + s + "'", true);
            }
        }
        Posture effective = posture != null ? posture : fromPath != null ? fromPath : severity != null ? severity : Posture.BLOCKING;
        Set<String> tools = new LinkedHashSet<>(yaml.stringList(keys.get("tools"), path + ".tools"));
        long timeout = yaml.integer(keys.get("timeout_ms"), path + ".timeout_ms", ConcernSpec.DEFAULT_TIMEOUT_MS);
        if (timeout <= 0 || timeout > 600_000) {
            yaml.error("out-of-range", keys.get("timeout_ms").getValueNode(), path + ".timeout_ms", "must be between 1 and 600000, found " + timeout, true);
        }
        boolean skipOnRetry = yaml.bool(keys.get("skip_on_refusal_retry"), path + ".skip_on_refusal_retry", false);
        long rank = yaml.integer(keys.get("nudge_rank"), path + ".nudge_rank", 0);
        if (keys.containsKey("nudge_rank") && rank <= 0) {
            yaml.error("out-of-range", keys.get("nudge_rank").getValueNode(), path + ".nudge_rank", "must be a positive integer", true);
        }
        Set<String> bodies = new LinkedHashSet<>();
        for (String body : yaml.stringList(keys.get("needs_payload_bodies"), path + ".needs_payload_bodies")) {
            if (!body.equals("input") && !body.equals("result")) {
                yaml.error("bad-value", keys.get("needs_payload_bodies").getValueNode(), path + ".needs_payload_bodies",
                        "entries are input or result, found '" + body + "'", true);
            }
            bodies.add(body);
        }
        if (script == null) {
            return null;
        }
        Map<String, Object> settings = script.startsWith(ConcernSpec.BUILTIN_PREFIX)
                ? builtinSettings(path, node, keys, Builtins.descriptor(script.substring(ConcernSpec.BUILTIN_PREFIX.length())))
                : processSettings(path, keys);
        Escalation escalate = escalation(path, keys.get("escalate"), effective, script, settings);
        return new ConcernSpec(name, script, args, failClosed, effective, Set.copyOf(tools), (int) timeout,
                skipOnRetry, (int) rank, settings, Set.copyOf(bodies), escalate);
    }

    /**
     * A concern's {@code escalate}, or {@code null} when absent or wrong (an error at the key its
     * problem names). It must be able to act: a concern that may refuse ({@code posture: blocking}),
     * and for a rule one whose action is {@code deny}.
     */
    private Escalation escalation(String path, NodeTuple t, Posture posture, String script, Map<String, Object> settings) {
        if (t == null) {
            return null;
        }
        Escalation e;
        try {
            e = Escalation.parse(plain(t.getValueNode()));
        } catch (IllegalArgumentException bad) {
            String message = bad.getMessage();
            int colon = message.indexOf(": ");
            String key = message.substring(0, colon);
            Node at = t.getValueNode();
            if (key.indexOf('.') > 0 && at instanceof MappingNode m) {
                String sub = key.substring(key.indexOf('.') + 1);
                for (NodeTuple entry : m.getValue()) {
                    if (sub.equals(scalar(entry.getKeyNode()))) {
                        at = entry.getValueNode();
                    }
                }
            }
            yaml.error("bad-value", at, path + "." + key, message.substring(colon + 2), true);
            return null;
        }
        if (posture != Posture.BLOCKING) {
            yaml.error("bad-value", t.getKeyNode(), path + ".escalate", "has no effect under posture "
                    + posture.wire() + ": only a blocking concern refuses, and only a refusal escalates", true);
            return null;
        }
        if (script.equals(ConcernSpec.BUILTIN_PREFIX + "rule") && !"deny".equals(settings.get("action"))) {
            yaml.error("bad-value", t.getKeyNode(), path + ".escalate", "only a refusal escalates, and this rule's action is "
                    + settings.get("action") + " (escalate a rule with action: deny)", true);
            return null;
        }
        return e;
    }

    /**
     * A built-in's settings: every key of its entry that is not a concern key, each one it declares,
     * parsed by its descriptor so that a bad value is reported here and not at dispatch. A key it
     * does not declare is an error (in an agent-config manifest a warning, and ignored).
     */
    private Map<String, Object> builtinSettings(String path, Node node, Map<String, NodeTuple> keys, BuiltinDescriptor d) {
        Map<String, Object> settings = new LinkedHashMap<>();
        if (d == null) {
            return settings;
        }
        List<String> known = d.keys();
        keys.forEach((k, v) -> {
            if (CONCERN_KEYS.contains(k)) {
                return;
            }
            if (known.contains(k)) {
                settings.put(k, plain(v.getValueNode()));
                return;
            }
            if (k.equals(SETTINGS_KEY)) {
                yaml.error("settings-misplaced", v.getKeyNode(), path + "." + k, "a built-in's settings go at the concern level, not under `settings:`"
                        + (known.isEmpty() ? " (" + d.name() + " takes none)" : "; its settings are " + known), true);
                return;
            }
            List<String> all = new ArrayList<>(CONCERN_KEYS);
            all.addAll(known);
            yaml.unknownKey("unknown-key", v.getKeyNode(), path + "." + k, "unknown key for built-in " + d.name()
                    + (known.isEmpty() ? " (it takes no settings)" : "; its settings are " + known)
                    + NearMiss.hint(k, all) + (yaml.agentConfig() ? "; ignored" : ""));
        });
        for (SettingProblem p : Builtins.settingsProblems(d, settings)) {
            NodeTuple at = keys.get(p.key().split("[.\\[]", 2)[0]);
            Node where = at != null ? at.getKeyNode() : node;
            yaml.error("required".equals(p.message()) ? "missing-setting" : "bad-setting", where, p.key().isEmpty() ? path : path + "." + p.key(), p.message(), true);
        }
        return settings;
    }

    /**
     * A process concern's settings: the mapping under {@code settings:}. Other keys that are not
     * concern keys are errors, or in an agent-config manifest warnings and settings as agent-config reads them.
     */
    private Map<String, Object> processSettings(String path, Map<String, NodeTuple> keys) {
        Map<String, Object> settings = new LinkedHashMap<>();
        NodeTuple block = keys.get(SETTINGS_KEY);
        if (block != null) {
            if (plain(block.getValueNode()) instanceof Map<?, ?> m) {
                m.forEach((k, v) -> settings.put(String.valueOf(k), v));
            } else if (!(scalar(block.getValueNode()) == null && block.getValueNode() instanceof ScalarNode)) {
                yaml.error("wrong-type", block.getValueNode(), path + "." + SETTINGS_KEY, "must be a mapping of setting to value, found "
                        + describe(block.getValueNode()), true);
            }
        }
        keys.forEach((k, v) -> {
            if (CONCERN_KEYS.contains(k) || k.equals(SETTINGS_KEY)) {
                return;
            }
            List<String> all = new ArrayList<>(CONCERN_KEYS);
            all.add(SETTINGS_KEY);
            String hint = NearMiss.hint(k, all);
            if (yaml.agentConfig()) {
                yaml.warn("unknown-key", v.getKeyNode(), path + "." + k, "not a concern key; passed to the script as a setting" + hint);
                settings.putIfAbsent(k, plain(v.getValueNode()));
            } else {
                yaml.error("unknown-key", v.getKeyNode(), path + "." + k, "not a concern key" + hint
                        + " (a script's own settings go under `settings:`; concern keys are " + CONCERN_KEYS + ")", true);
            }
        });
        return settings;
    }

    void checkNudgeRanks(Map<String, ConcernSpec> concerns) {
        Map<Integer, String> byRank = new HashMap<>();
        for (ConcernSpec c : concerns.values()) {
            if (c.nudgeRank() > 0) {
                String other = byRank.putIfAbsent(c.nudgeRank(), c.name());
                if (other != null) {
                    yaml.error("duplicate-rank", rankNodes.get(c.name()), "concerns." + c.name() + ".nudge_rank",
                            "rank " + c.nudgeRank() + " already used by '" + other + "'", true);
                }
            }
        }
    }
}
