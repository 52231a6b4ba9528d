package dev.agentwarden.manifest;

import dev.agentwarden.builtin.BuiltinDescriptor;
import dev.agentwarden.builtin.Builtins;
import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.concern.Escalation;
import dev.agentwarden.concern.Posture;
import dev.agentwarden.concern.SettingProblem;
import dev.agentwarden.event.EventName;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.text.NearMiss;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/**
 * Reads a YAML 1.2 manifest (a superset of agent-config's {@code hook_manifest.yaml} schema v1),
 * validates it, and compiles it to a {@link Manifest}. Every problem names file, line and key.
 * Runs only off the dispatch path (lint, show, and cache misses).
 */
public final class ManifestCompiler {
    private static final List<String> TOP_LEVEL = List.of(
            "schema_version", "extends", "concerns", "roles", "platforms", "native_event_aliases", "decision_log");
    private static final List<String> CONCERN_KEYS = List.of(
            "script", "args", "fail_closed", "severity", "posture", "tools", "timeout_ms",
            "skip_on_refusal_retry", "nudge_rank", "needs_payload_bodies", "escalate");
    /** A process concern's free-form settings, passed to it in the envelope. */
    private static final String SETTINGS_KEY = "settings";
    private static final List<String> ROLE_KEYS = List.of("drop");
    /** Where agent-config's own concern scripts live; a manifest naming them is agent-config's. */
    private static final String AGENT_CONFIG_SCRIPTS = "src/scripts/hooks/";

    /**
     * agent-config's marker for a host with no hook surface ({@code platforms.copilot.fallback_only:
     * true}): accepted in place of event chains, and binds nothing for that host (no chain of its own,
     * none from the default it extends), so Warden's hooks for it do nothing.
     */
    private static final String FALLBACK_ONLY = "fallback_only";

    private final String file;
    private final Path scriptRoot;
    /**
     * The manifest is recognisably agent-config's ({@code schema_version: 1} and its TypeScript
     * hook scripts): keys Warden does not know are warnings there, so its manifests load unchanged.
     */
    private boolean agentConfig;
    private final List<ManifestProblem> problems = new ArrayList<>();
    /** Where each concern's {@code nudge_rank} value sits, for the uniqueness check after reading all. */
    private final Map<String, Node> rankNodes = new HashMap<>();

    private ManifestCompiler(String file, Path scriptRoot) {
        this.file = file;
        this.scriptRoot = scriptRoot;
    }

    /** {@code extends: default} was read: the shipped default lies under this manifest. */
    private ManifestMerge merge;
    /** host → event → where a {@code {drop: [...]}} chain came from. */
    private final Map<String, Map<String, String>> dropOrigins = new LinkedHashMap<>();
    /**
     * host → event → the chain entries left out, each {@code "<name>: <why> (line N)"}: an unknown
     * concern, or one listed twice. Lint reports each as an error; dispatch runs the rest of the chain.
     */
    private final Map<String, Map<String, List<String>>> skipped = new LinkedHashMap<>();
    /** Hosts marked {@code fallback_only: true}: they bind nothing, not even chains {@code extends: default} brings. */
    private final Set<String> fallbackOnly = new LinkedHashSet<>();

    /**
     * The outcome of compiling: the manifest when no fatal problem stands, every problem, and
     * where each concern and chain came from ({@link ManifestMerge.Origins#NONE} unless it extends).
     */
    public record Result(Manifest manifest, List<ManifestProblem> problems, ManifestMerge.Origins origins) {
        public Result(Manifest manifest, List<ManifestProblem> problems) {
            this(manifest, problems, ManifestMerge.Origins.NONE);
        }

        public boolean hasErrors() {
            return problems.stream().anyMatch(ManifestProblem::isError);
        }
    }

    /**
     * Compiles manifest text.
     *
     * @throws ManifestException when the text is not YAML, or not a mapping at the top
     */
    public static Result compile(String file, String text, String sha256) throws ManifestException {
        return new ManifestCompiler(file, null).run(text, sha256);
    }

    /**
     * Compiles manifest text and also reports command scripts missing under {@code scriptRoot}
     * (the project root they resolve against) as errors that do not stop compilation.
     */
    public static Result compileAndCheckScripts(String file, String text, String sha256,
                                                Path scriptRoot) throws ManifestException {
        return new ManifestCompiler(file, scriptRoot).run(text, sha256);
    }

    private Result run(String text, String sha256) throws ManifestException {
        Node root;
        try {
            root = new Compose(LoadSettings.builder().setLabel(file).build()).composeString(text).orElse(null);
        } catch (MarkedYamlEngineException e) {
            // an unclosed quote is noticed where the text ends; the context mark is where it opened
            boolean atContext = YamlErrors.reportedWhereItOpened(e.getContext()) && e.getContextMark().isPresent();
            Optional<Mark> mark = atContext ? e.getContextMark() : e.getProblemMark();
            int line = mark.map(m -> m.getLine() + 1).orElse(0);
            int column = mark.map(m -> m.getColumn() + 1).orElse(0);
            String problem = atContext ? e.getContext() : e.getProblem();
            throw unreadable("yaml-syntax", line, YamlErrors.keyPathAt(text, line), YamlErrors.plainWords(problem, line, column));
        } catch (YamlEngineException e) {
            throw unreadable("yaml-syntax", 0, "", "not valid YAML: " + e.getMessage());
        }
        if (!(root instanceof MappingNode top)) {
            throw unreadable("not-a-manifest", line(root), "", "a manifest is a YAML mapping with schema_version, concerns and platforms");
        }
        Map<String, NodeTuple> keys = entries(top, "");
        agentConfig = isAgentConfigs(keys);
        for (String k : keys.keySet()) {
            if (!TOP_LEVEL.contains(k)) {
                unknownKey("unknown-key", keys.get(k).getKeyNode(), k, "unknown top-level key; the keys are " + TOP_LEVEL
                        + NearMiss.hint(k, TOP_LEVEL));
            }
        }
        checkSchemaVersion(keys.get("schema_version"));
        merge = readExtends(keys.get("extends"));
        Map<String, ConcernSpec> concerns = readConcerns(keys.get("concerns"));
        if (merge != null) {
            concerns = merge.concerns(concerns);
        }
        Map<String, Set<String>> drops = readRoles(keys.get("roles"), concerns);
        Map<String, Map<String, EventName>> aliases = readAliases(keys.get("native_event_aliases"));
        if (merge != null) {
            aliases = merge.aliases(aliases);
        }
        Map<String, Map<String, List<String>>> platforms = readPlatforms(keys.get("platforms"), concerns, aliases);
        if (merge != null) {
            platforms = merge.platforms(platforms, dropOrigins);
        }
        for (String host : fallbackOnly) {
            platforms.put(host, new LinkedHashMap<>());
        }
        checkNudgeRanks(concerns);
        boolean verbatimReasons = readDecisionLog(keys.get("decision_log"));

        if (problems.stream().anyMatch(ManifestProblem::fatal)) {
            return new Result(null, List.copyOf(problems));
        }
        Map<String, Map<String, Map<String, List<String>>>> chains = new LinkedHashMap<>();
        platforms.forEach((host, byEvent) -> {
            Map<String, Map<String, List<String>>> hostChains = new LinkedHashMap<>();
            byEvent.forEach((event, names) -> {
                Map<String, List<String>> byRole = new LinkedHashMap<>();
                byRole.put(Manifest.DEFAULT_ROLE, List.copyOf(names));
                drops.forEach((role, dropped) -> byRole.put(role,
                        event.equals(EventName.PRE_TOOL_USE.wire())
                                ? List.copyOf(names)
                                : names.stream().filter(n -> !dropped.contains(n)).toList()));
                hostChains.put(event, byRole);
            });
            chains.put(host, hostChains);
        });
        Map<String, Map<String, List<String>>> skippedEntries = new LinkedHashMap<>();
        skipped.forEach((host, byEvent) -> {
            if (chains.containsKey(host)) {
                Map<String, List<String>> h = new LinkedHashMap<>();
                byEvent.forEach((event, entries) -> h.put(event, List.copyOf(entries)));
                skippedEntries.put(host, h);
            }
        });
        return new Result(new Manifest(file, sha256, aliases, concerns, chains, verbatimReasons, skippedEntries),
                List.copyOf(problems), merge == null ? ManifestMerge.Origins.NONE : merge.origins());
    }

    /** {@code extends: default} lays this manifest over the shipped one; nothing else may be extended. */
    private ManifestMerge readExtends(NodeTuple t) {
        if (t == null) {
            return null;
        }
        Object v = scalar(t.getValueNode());
        if (!ManifestMerge.DEFAULT.equals(v)) {
            error("extends-value", t.getValueNode(), "extends", "only `default` (the manifest shipped with Warden) can be extended, found "
                    + describe(t.getValueNode()) + NearMiss.hint(String.valueOf(v), List.of(ManifestMerge.DEFAULT)), true);
            return null;
        }
        return ManifestMerge.overDefault();
    }

    /**
     * A chain written {@code {drop: [names]}} in a manifest that extends the default: the default
     * chain for this host and event without those concerns; {@code null} when it cannot be read.
     */
    private List<String> droppedFromDefault(String chainPath, String host, String event, NodeTuple chain,
                                            MappingNode map) {
        if (merge == null) {
            error("drop-needs-extends", chain.getValueNode(), chainPath, "a chain is a list of concern names; `{drop: [...]}` is for a"
                    + " manifest with `extends: default`", true);
            return null;
        }
        Map<String, NodeTuple> keys = entries(map, chainPath);
        for (String k : keys.keySet()) {
            if (!"drop".equals(k)) {
                error("unknown-key", keys.get(k).getKeyNode(), chainPath + "." + k, "unknown chain key; a chain over the default"
                        + " takes drop:" + NearMiss.hint(k, List.of("drop")), true);
            }
        }
        List<String> base = merge.defaultChain(host, event);
        List<String> dropped = stringList(keys.get("drop"), chainPath + ".drop");
        for (String name : dropped) {
            if (!base.contains(name)) {
                error("drop-not-in-chain", keys.get("drop").getValueNode(), chainPath + ".drop", "'" + name + "' is not in the default"
                        + " chain for " + host + "." + event + ", which is " + base + NearMiss.hint(name, base), true);
            }
        }
        List<String> out = new ArrayList<>();
        for (String name : base) {
            if (!dropped.contains(name)) {
                out.add(name);
            }
        }
        dropOrigins.computeIfAbsent(host, h -> new LinkedHashMap<>()).put(event, "default without " + dropped);
        return out;
    }

    /** {@code decision_log: {reasons: verbatim|hashed}}; whether reasons are recorded as written (the default). */
    private boolean readDecisionLog(NodeTuple t) {
        if (t == null) {
            return true;
        }
        if (!(t.getValueNode() instanceof MappingNode m)) {
            error("wrong-type", t.getValueNode(), "decision_log", "a mapping, e.g. {reasons: verbatim}", true);
            return false;
        }
        Map<String, NodeTuple> keys = entries(m, "decision_log");
        for (String k : keys.keySet()) {
            if (!"reasons".equals(k)) {
                error("unknown-key", keys.get(k).getKeyNode(), "decision_log." + k, "unknown decision_log key; known: reasons", true);
            }
        }
        NodeTuple reasons = keys.get("reasons");
        if (reasons == null) {
            return true;
        }
        Object v = scalar(reasons.getValueNode());
        if ("verbatim".equals(v)) {
            return true;
        }
        if (!"hashed".equals(v)) {
            error("bad-value", reasons.getValueNode(), "decision_log.reasons", "'" + v + "' is not hashed or verbatim", true);
        }
        return false;
    }

    private void checkSchemaVersion(NodeTuple t) {
        if (t == null) {
            error("missing-key", null, "schema_version", "missing; this reader understands schema_version: 1", true);
            return;
        }
        Object v = scalar(t.getValueNode());
        if (!(v instanceof Long n) || n != 1) {
            error("bad-value", t.getValueNode(), "schema_version", "must be 1, found " + describe(t.getValueNode()), true);
        }
    }

    /** {@code schema_version: 1} and at least one concern script under agent-config's hook scripts. */
    private static boolean isAgentConfigs(Map<String, NodeTuple> keys) {
        NodeTuple version = keys.get("schema_version");
        NodeTuple concerns = keys.get("concerns");
        if (version == null || !(scalar(version.getValueNode()) instanceof Long v) || v != 1
                || concerns == null || !(concerns.getValueNode() instanceof MappingNode map)) {
            return false;
        }
        for (NodeTuple c : map.getValue()) {
            if (c.getValueNode() instanceof MappingNode concern) {
                for (NodeTuple k : concern.getValue()) {
                    if (k.getKeyNode() instanceof ScalarNode key && key.getValue().equals("script")
                            && k.getValueNode() instanceof ScalarNode script
                            && script.getValue().startsWith(AGENT_CONFIG_SCRIPTS) && script.getValue().endsWith(".ts")) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private Map<String, ConcernSpec> readConcerns(NodeTuple t) {
        Map<String, ConcernSpec> out = new LinkedHashMap<>();
        if (t == null) {
            if (merge == null) {
                error("missing-key", null, "concerns", "missing", true);
            }
            return out;
        }
        if (!(t.getValueNode() instanceof MappingNode map)) {
            error("wrong-type", t.getValueNode(), "concerns", "must be a mapping of concern name to definition", true);
            return out;
        }
        entries(map, "concerns").forEach((name, entry) -> {
            ConcernSpec spec = readConcern("concerns." + name, name, entry.getValueNode());
            if (spec != null) {
                out.put(name, spec);
            }
        });
        return out;
    }

    private ConcernSpec readConcern(String path, String name, Node node) {
        if (!(node instanceof MappingNode map)) {
            error("wrong-type", node, path, "a concern is a mapping with at least script:", true);
            return null;
        }
        Map<String, NodeTuple> keys = entries(map, path);
        NodeTuple scriptNode = keys.get("script");
        if (keys.containsKey("nudge_rank")) {
            rankNodes.put(name, keys.get("nudge_rank").getValueNode());
        }
        String script = scriptNode == null ? null : string(scriptNode.getValueNode(), path + ".script", true);
        if (scriptNode == null) {
            error("missing-key", node, path + ".script", "missing script", true);
        }
        Posture fromPath = null;
        if (script != null) {
            if (script.startsWith(ConcernSpec.BUILTIN_PREFIX)) {
                String builtin = script.substring(ConcernSpec.BUILTIN_PREFIX.length());
                if (!Builtins.exists(builtin)) {
                    error("unknown-builtin", scriptNode.getValueNode(), path + ".script", "unknown built-in '" + builtin
                            + "'; built-ins are " + Builtins.NAMES + NearMiss.hint(builtin, Builtins.NAMES), true);
                }
            } else {
                String twin = Builtins.twinOf(script);
                if (twin != null) {
                    fromPath = script.endsWith("spawn_guard_shadow_hook.ts") ? Posture.SHADOW : null;
                    script = ConcernSpec.BUILTIN_PREFIX + twin;
                } else if (scriptRoot != null) {
                    String problem = ScriptCheck.problem(scriptRoot.resolve(script));
                    if (problem != null) {
                        error(ScriptCheck.code(problem), scriptNode.getValueNode(), path + ".script", problem
                                + (problem.startsWith("script not found") ? " (and no built-in twin; built-ins are "
                                + Builtins.NAMES + ")" : ""), false);
                    }
                }
            }
        }
        List<String> args = stringList(keys.get("args"), path + ".args");
        boolean failClosed = bool(keys.get("fail_closed"), path + ".fail_closed", false);
        Posture severity = null;
        if (keys.containsKey("severity")) {
            String s = string(keys.get("severity").getValueNode(), path + ".severity", false);
            severity = "advisory".equals(s) ? Posture.ADVISORY : "blocking".equals(s) ? Posture.BLOCKING : null;
            if (s != null && severity == null) {
                error("bad-value", keys.get("severity").getValueNode(), path + ".severity", "must be advisory or blocking, found '" + s + "'", true);
            }
        }
        Posture posture = null;
        if (keys.containsKey("posture")) {
            String s = string(keys.get("posture").getValueNode(), path + ".posture", false);
            posture = Posture.fromWire(s);
            if (s != null && posture == null) {
                error("bad-value", keys.get("posture").getValueNode(), path + ".posture", "must be shadow, advisory or blocking, found '" + s + "'", true);
            }
        }
        Posture effective = posture != null ? posture : fromPath != null ? fromPath : severity != null ? severity : Posture.BLOCKING;
        Set<String> tools = new LinkedHashSet<>(stringList(keys.get("tools"), path + ".tools"));
        long timeout = integer(keys.get("timeout_ms"), path + ".timeout_ms", ConcernSpec.DEFAULT_TIMEOUT_MS);
        if (timeout <= 0 || timeout > 600_000) {
            error("out-of-range", keys.get("timeout_ms").getValueNode(), path + ".timeout_ms", "must be between 1 and 600000, found " + timeout, true);
        }
        boolean skipOnRetry = bool(keys.get("skip_on_refusal_retry"), path + ".skip_on_refusal_retry", false);
        long rank = integer(keys.get("nudge_rank"), path + ".nudge_rank", 0);
        if (keys.containsKey("nudge_rank") && rank <= 0) {
            error("out-of-range", keys.get("nudge_rank").getValueNode(), path + ".nudge_rank", "must be a positive integer", true);
        }
        Set<String> bodies = new LinkedHashSet<>();
        for (String body : stringList(keys.get("needs_payload_bodies"), path + ".needs_payload_bodies")) {
            if (!body.equals("input") && !body.equals("result")) {
                error("bad-value", keys.get("needs_payload_bodies").getValueNode(), path + ".needs_payload_bodies",
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
            error("bad-value", at, path + "." + key, message.substring(colon + 2), true);
            return null;
        }
        if (posture != Posture.BLOCKING) {
            error("bad-value", t.getKeyNode(), path + ".escalate", "has no effect under posture "
                    + posture.wire() + ": only a blocking concern refuses, and only a refusal escalates", true);
            return null;
        }
        if (script.equals(ConcernSpec.BUILTIN_PREFIX + "rule") && !"deny".equals(settings.get("action"))) {
            error("bad-value", t.getKeyNode(), path + ".escalate", "only a refusal escalates, and this rule's action is "
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
                error("settings-misplaced", v.getKeyNode(), path + "." + k, "a built-in's settings go at the concern level, not under `settings:`"
                        + (known.isEmpty() ? " (" + d.name() + " takes none)" : "; its settings are " + known), true);
                return;
            }
            List<String> all = new ArrayList<>(CONCERN_KEYS);
            all.addAll(known);
            unknownKey("unknown-key", v.getKeyNode(), path + "." + k, "unknown key for built-in " + d.name()
                    + (known.isEmpty() ? " (it takes no settings)" : "; its settings are " + known)
                    + NearMiss.hint(k, all) + (agentConfig ? "; ignored" : ""));
        });
        for (SettingProblem p : Builtins.settingsProblems(d, settings)) {
            NodeTuple at = keys.get(p.key().split("[.\\[]", 2)[0]);
            Node where = at != null ? at.getKeyNode() : node;
            error("required".equals(p.message()) ? "missing-setting" : "bad-setting", where, p.key().isEmpty() ? path : path + "." + p.key(), p.message(), true);
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
                error("wrong-type", block.getValueNode(), path + "." + SETTINGS_KEY, "must be a mapping of setting to value, found "
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
            if (agentConfig) {
                warn("unknown-key", v.getKeyNode(), path + "." + k, "not a concern key; passed to the script as a setting" + hint);
                settings.putIfAbsent(k, plain(v.getValueNode()));
            } else {
                error("unknown-key", v.getKeyNode(), path + "." + k, "not a concern key" + hint
                        + " (a script's own settings go under `settings:`; concern keys are " + CONCERN_KEYS + ")", true);
            }
        });
        return settings;
    }

    private Map<String, Set<String>> readRoles(NodeTuple t, Map<String, ConcernSpec> concerns) {
        Map<String, Set<String>> drops = new LinkedHashMap<>();
        if (t == null) {
            return drops;
        }
        if (!(t.getValueNode() instanceof MappingNode map)) {
            error("wrong-type", t.getValueNode(), "roles", "must be a mapping of role to {drop: [...]}", true);
            return drops;
        }
        entries(map, "roles").forEach((role, entry) -> {
            String path = "roles." + role;
            if (!(entry.getValueNode() instanceof MappingNode roleMap)) {
                error("wrong-type", entry.getValueNode(), path, "must be a mapping with drop:", true);
                return;
            }
            Map<String, NodeTuple> keys = entries(roleMap, path);
            for (String k : keys.keySet()) {
                if (!ROLE_KEYS.contains(k)) {
                    unknownKey("unknown-key", keys.get(k).getKeyNode(), path + "." + k, "unknown role key; a role has drop:"
                            + NearMiss.hint(k, ROLE_KEYS));
                }
            }
            Set<String> dropped = new LinkedHashSet<>();
            if (keys.get("drop") != null) {
                Node list = keys.get("drop").getValueNode();
                for (String name : stringList(keys.get("drop"), path + ".drop")) {
                    if (!concerns.containsKey(name)) {
                        // dropping what no chain holds changes nothing: lint's error, not the manifest's end
                        error("unknown-concern", list, path + ".drop", "unknown concern '" + name + "'"
                                + NearMiss.hint(name, concerns.keySet()), false);
                    }
                    dropped.add(name);
                }
            }
            drops.put(role, dropped);
        });
        return drops;
    }

    private Map<String, Map<String, EventName>> readAliases(NodeTuple t) {
        Map<String, Map<String, EventName>> out = new LinkedHashMap<>();
        if (t == null) {
            return out;
        }
        if (!(t.getValueNode() instanceof MappingNode map)) {
            error("wrong-type", t.getValueNode(), "native_event_aliases", "must be a mapping of host to native-event aliases", true);
            return out;
        }
        entries(map, "native_event_aliases").forEach((host, entry) -> {
            String path = "native_event_aliases." + host;
            checkHost(entry.getKeyNode(), path, host);
            if (!(entry.getValueNode() instanceof MappingNode hostMap)) {
                error("wrong-type", entry.getValueNode(), path, "must be a mapping of NativeEvent: canonical_event", true);
                return;
            }
            Map<String, EventName> byNative = new LinkedHashMap<>();
            entries(hostMap, path).forEach((nativeName, alias) -> {
                String ev = string(alias.getValueNode(), path + "." + nativeName, true);
                EventName canonical = EventName.fromWire(ev);
                if (ev != null && canonical == null) {
                    error("unknown-event", alias.getValueNode(), path + "." + nativeName, "unknown event '" + ev + "'"
                            + NearMiss.hint(ev, EventName.wireNames()), true);
                } else if (canonical != null) {
                    byNative.put(nativeName, canonical);
                }
            });
            out.put(host, byNative);
        });
        return out;
    }

    private Map<String, Map<String, List<String>>> readPlatforms(NodeTuple t, Map<String, ConcernSpec> concerns,
                                                                Map<String, Map<String, EventName>> aliases) {
        Map<String, Map<String, List<String>>> out = new LinkedHashMap<>();
        if (t == null) {
            if (merge == null) {
                error("missing-key", null, "platforms", "missing", true);
            }
            return out;
        }
        if (!(t.getValueNode() instanceof MappingNode map)) {
            error("wrong-type", t.getValueNode(), "platforms", "must be a mapping of host to event chains", true);
            return out;
        }
        entries(map, "platforms").forEach((host, entry) -> {
            String path = "platforms." + host;
            checkHost(entry.getKeyNode(), path, host);
            if (!(entry.getValueNode() instanceof MappingNode hostMap)) {
                error("wrong-type", entry.getValueNode(), path, "must be a mapping of event to [concern, …]", true);
                return;
            }
            Map<String, List<String>> byEvent = new LinkedHashMap<>();
            entries(hostMap, path).forEach((event, chain) -> {
                String chainPath = path + "." + event;
                if (event.equals(FALLBACK_ONLY)) {
                    if (bool(chain, chainPath, false)) {
                        fallbackOnly.add(host);
                    }
                    return;
                }
                EventName ev = EventName.fromWire(event);
                if (ev == null) {
                    error("unknown-event", chain.getKeyNode(), chainPath, "unknown event '" + event + "'"
                            + NearMiss.hint(event, EventName.wireNames()), true);
                    return;
                }
                List<String> names = chain.getValueNode() instanceof MappingNode dropMap
                        ? droppedFromDefault(chainPath, host, event, chain, dropMap) : stringList(chain, chainPath);
                if (names == null) {
                    return;
                }
                Set<String> seen = new LinkedHashSet<>();
                for (String name : names) {
                    ConcernSpec c = concerns.get(name);
                    if (c == null) {
                        error("unknown-concern", chain.getValueNode(), chainPath, "unknown concern '" + name + "'"
                                + NearMiss.hint(name, concerns.keySet()), false);
                        skip(host, event, name + ": unknown concern (line " + line(chain.getValueNode()) + ")");
                    } else if (!seen.add(name)) {
                        error("duplicate-concern", chain.getValueNode(), chainPath, "concern '" + name + "' listed twice", false);
                        skip(host, event, name + ": listed twice, runs once (line " + line(chain.getValueNode()) + ")");
                    } else if (c.isBuiltin() && Builtins.descriptor(c.builtinName()) != null
                            && !Builtins.descriptor(c.builtinName()).bindsTo(ev)) {
                        error("wrong-event", chain.getValueNode(), chainPath, "built-in " + c.builtinName() + " (concern '" + name
                                + "') does nothing on " + event + "; it runs on "
                                + wireNames(Builtins.descriptor(c.builtinName()).events()), true);
                    } else if (c.isBuiltin() && Builtins.descriptor(c.builtinName()) != null
                            && Builtins.descriptor(c.builtinName()).cannotRunOn(ev, c.settings()) != null) {
                        error("wrong-event", chain.getValueNode(), chainPath, "concern '" + name + "' cannot run on " + event
                                + ": " + Builtins.descriptor(c.builtinName()).cannotRunOn(ev, c.settings()), true);
                    } else {
                        String cannot = CapabilityCheck.problem(host, ev, c, aliases.getOrDefault(host, Map.of()));
                        if (cannot != null) {
                            warn("cannot-refuse", chain.getValueNode(), chainPath, cannot);
                        }
                    }
                }
                byEvent.put(event, List.copyOf(seen));
            });
            out.put(host, byEvent);
        });
        return out;
    }

    private void skip(String host, String event, String entry) {
        skipped.computeIfAbsent(host, h -> new LinkedHashMap<>()).computeIfAbsent(event, e -> new ArrayList<>()).add(entry);
    }

    private void checkNudgeRanks(Map<String, ConcernSpec> concerns) {
        Map<Integer, String> byRank = new HashMap<>();
        for (ConcernSpec c : concerns.values()) {
            if (c.nudgeRank() > 0) {
                String other = byRank.putIfAbsent(c.nudgeRank(), c.name());
                if (other != null) {
                    error("duplicate-rank", rankNodes.get(c.name()), "concerns." + c.name() + ".nudge_rank",
                            "rank " + c.nudgeRank() + " already used by '" + other + "'", true);
                }
            }
        }
    }

    private void checkHost(Node node, String path, String host) {
        if (!Hosts.KNOWN.contains(host)) {
            error("unknown-host", node, path, "unknown host '" + host + "'; known hosts are " + Hosts.KNOWN
                    + NearMiss.hint(host, Hosts.KNOWN), true);
        }
    }

    private static List<String> wireNames(Set<EventName> events) {
        List<String> out = new ArrayList<>();
        for (EventName e : EventName.values()) {
            if (events.contains(e)) {
                out.add(e.wire());
            }
        }
        return out;
    }

    /** A key Warden does not know: an error, or a warning in an agent-config manifest. */
    private void unknownKey(String code, Node node, String key, String message) {
        if (agentConfig) {
            warn(code, node, key, message);
        } else {
            error(code, node, key, message, true);
        }
    }

    /** Keys of a mapping in order; duplicate or non-string keys are reported. */
    private Map<String, NodeTuple> entries(MappingNode map, String path) {
        Map<String, NodeTuple> out = new LinkedHashMap<>();
        for (NodeTuple t : map.getValue()) {
            if (!(t.getKeyNode() instanceof ScalarNode key)) {
                error("wrong-type", t.getKeyNode(), path, "keys must be plain strings", true);
                continue;
            }
            String name = key.getValue();
            if (out.containsKey(name)) {
                error("duplicate-key", key, path.isEmpty() ? name : path + "." + name, "duplicate key '" + name + "'", true);
                continue;
            }
            out.put(name, t);
        }
        return out;
    }

    private String string(Node node, String path, boolean required) {
        if (node instanceof ScalarNode s && s.getTag().equals(Tag.STR)) {
            return s.getValue();
        }
        if (node instanceof ScalarNode s && s.getTag().equals(Tag.NULL) && !required) {
            return null;
        }
        error("wrong-type", node, path, "must be a string, found " + describe(node), true);
        return null;
    }

    private List<String> stringList(NodeTuple t, String path) {
        if (t == null) {
            return List.of();
        }
        Node node = t.getValueNode();
        if (node instanceof ScalarNode s && s.getTag().equals(Tag.NULL)) {
            return List.of();
        }
        if (!(node instanceof SequenceNode seq)) {
            error("wrong-type", node, path, "must be a list of strings, found " + describe(node), true);
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (Node item : seq.getValue()) {
            String s = string(item, path, true);
            if (s != null) {
                out.add(s);
            }
        }
        return out;
    }

    private boolean bool(NodeTuple t, String path, boolean fallback) {
        if (t == null) {
            return fallback;
        }
        if (scalar(t.getValueNode()) instanceof Boolean b) {
            return b;
        }
        error("wrong-type", t.getValueNode(), path, "must be true or false, found " + describe(t.getValueNode()), true);
        return fallback;
    }

    private long integer(NodeTuple t, String path, long fallback) {
        if (t == null) {
            return fallback;
        }
        if (scalar(t.getValueNode()) instanceof Long n) {
            return n;
        }
        error("wrong-type", t.getValueNode(), path, "must be an integer, found " + describe(t.getValueNode()), true);
        return fallback;
    }

    /** A scalar's value under the YAML 1.2 core schema, or {@code null} for non-scalars. */
    private static Object scalar(Node node) {
        if (!(node instanceof ScalarNode s)) {
            return null;
        }
        Tag tag = s.getTag();
        String v = s.getValue();
        try {
            if (tag.equals(Tag.BOOL)) {
                return Boolean.parseBoolean(v.toLowerCase(java.util.Locale.ROOT));
            }
            if (tag.equals(Tag.INT)) {
                return v.startsWith("0x") ? Long.parseLong(v.substring(2), 16)
                        : v.startsWith("0o") ? Long.parseLong(v.substring(2), 8) : Long.parseLong(v.replace("+", ""));
            }
            if (tag.equals(Tag.FLOAT)) {
                return Double.parseDouble(v);
            }
        } catch (NumberFormatException e) {
            return v;
        }
        if (tag.equals(Tag.NULL)) {
            return null;
        }
        return v;
    }

    /** A node as plain Java values (maps, lists, scalars) for concern settings. */
    private static Object plain(Node node) {
        if (node instanceof MappingNode m) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (NodeTuple t : m.getValue()) {
                out.put(String.valueOf(scalar(t.getKeyNode())), plain(t.getValueNode()));
            }
            return out;
        }
        if (node instanceof SequenceNode seq) {
            List<Object> out = new ArrayList<>();
            seq.getValue().forEach(n -> out.add(plain(n)));
            return out;
        }
        return scalar(node);
    }

    private static String describe(Node node) {
        if (node instanceof MappingNode) {
            return "a mapping";
        }
        if (node instanceof SequenceNode) {
            return "a list";
        }
        if (node instanceof ScalarNode s) {
            return s.getTag().equals(Tag.STR) ? "'" + s.getValue() + "'" : s.getValue();
        }
        return "nothing";
    }

    private static int line(Node node) {
        return node == null ? 0 : node.getStartMark().map(m -> m.getLine() + 1).orElse(0);
    }

    /** A problem with its stable {@code code} (kebab-case, listed in the README), at the node's line. */
    private void error(String code, Node node, String key, String message, boolean fatal) {
        problems.add(new ManifestProblem(file, line(node), key, message, ManifestProblem.Kind.ERROR, fatal, code));
    }

    private void warn(String code, Node node, String key, String message) {
        problems.add(new ManifestProblem(file, line(node), key, message, ManifestProblem.Kind.WARNING, false, code));
    }

    /** The text is not a manifest at all; the message is short, the one problem holds the detail. */
    private ManifestException unreadable(String code, int line, String key, String message) {
        ManifestProblem p = new ManifestProblem(file, line, key, message, ManifestProblem.Kind.ERROR, true, code);
        return new ManifestException(file + ": not a readable manifest", List.of(p), true);
    }
}
