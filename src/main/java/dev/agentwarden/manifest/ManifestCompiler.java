package dev.agentwarden.manifest;

import static dev.agentwarden.manifest.ManifestNodes.describe;
import static dev.agentwarden.manifest.ManifestNodes.line;
import static dev.agentwarden.manifest.ManifestNodes.scalar;

import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.event.EventName;
import dev.agentwarden.text.NearMiss;
import java.nio.file.Path;
import java.util.LinkedHashMap;
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

/**
 * Reads a YAML 1.2 manifest (a superset of agent-config's {@code hook_manifest.yaml} schema v1),
 * validates it, and compiles it to a {@link Manifest}. Every problem names file, line and key.
 * Runs only off the dispatch path (lint, show, and cache misses).
 *
 * <p>The work is split by job: {@link ManifestNodes} reads typed values from the YAML nodes and
 * collects the problems; {@link ConcernSchema} and {@link ChainSchema} check the {@code concerns:}
 * and chain blocks; this class checks the top level and compiles the per-role chains.
 */
public final class ManifestCompiler {
    private static final List<String> TOP_LEVEL = List.of(
            "schema_version", "extends", "concerns", "roles", "platforms", "native_event_aliases", "decision_log");
    /** Where agent-config's own concern scripts live; a manifest naming them is agent-config's. */
    private static final String AGENT_CONFIG_SCRIPTS = "src/scripts/hooks/";

    private final String file;
    private final ManifestNodes yaml;
    private final ConcernSchema concernSchema;

    private ManifestCompiler(String file, Path scriptRoot) {
        this.file = file;
        this.yaml = new ManifestNodes(file);
        this.concernSchema = new ConcernSchema(yaml, scriptRoot);
    }


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
            throw yaml.unreadable("yaml-syntax", line, YamlErrors.keyPathAt(text, line), YamlErrors.plainWords(problem, line, column));
        } catch (YamlEngineException e) {
            throw yaml.unreadable("yaml-syntax", 0, "", "not valid YAML: " + e.getMessage());
        }
        if (!(root instanceof MappingNode top)) {
            throw yaml.unreadable("not-a-manifest", line(root), "", "a manifest is a YAML mapping with schema_version, concerns and platforms");
        }
        Map<String, NodeTuple> keys = yaml.entries(top, "");
        yaml.agentConfig(isAgentConfigs(keys));
        for (String k : keys.keySet()) {
            if (!TOP_LEVEL.contains(k)) {
                yaml.unknownKey("unknown-key", keys.get(k).getKeyNode(), k, "unknown top-level key; the keys are " + TOP_LEVEL
                        + NearMiss.hint(k, TOP_LEVEL));
            }
        }
        checkSchemaVersion(keys.get("schema_version"));
        ManifestMerge merge = readExtends(keys.get("extends"));
        Map<String, ConcernSpec> concerns = concernSchema.read(keys.get("concerns"), merge != null);
        if (merge != null) {
            concerns = merge.concerns(concerns);
        }
        ChainSchema chainSchema = new ChainSchema(yaml, merge);
        Map<String, Set<String>> drops = chainSchema.readRoles(keys.get("roles"), concerns);
        Map<String, Map<String, EventName>> aliases = chainSchema.readAliases(keys.get("native_event_aliases"));
        if (merge != null) {
            aliases = merge.aliases(aliases);
        }
        Map<String, Map<String, List<String>>> platforms = chainSchema.readPlatforms(keys.get("platforms"), concerns, aliases);
        if (merge != null) {
            platforms = merge.platforms(platforms, chainSchema.dropOrigins());
        }
        for (String host : chainSchema.fallbackOnly()) {
            platforms.put(host, new LinkedHashMap<>());
        }
        concernSchema.checkNudgeRanks(concerns);
        boolean verbatimReasons = readDecisionLog(keys.get("decision_log"));

        if (yaml.anyFatal()) {
            return new Result(null, yaml.problems());
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
        chainSchema.skipped().forEach((host, byEvent) -> {
            if (chains.containsKey(host)) {
                Map<String, List<String>> h = new LinkedHashMap<>();
                byEvent.forEach((event, entries) -> h.put(event, List.copyOf(entries)));
                skippedEntries.put(host, h);
            }
        });
        return new Result(new Manifest(file, sha256, aliases, concerns, chains, verbatimReasons, skippedEntries),
                yaml.problems(), merge == null ? ManifestMerge.Origins.NONE : merge.origins());
    }

    /** {@code extends: default} lays this manifest over the shipped one; nothing else may be extended. */
    private ManifestMerge readExtends(NodeTuple t) {
        if (t == null) {
            return null;
        }
        Object v = scalar(t.getValueNode());
        if (!ManifestMerge.DEFAULT.equals(v)) {
            yaml.error("extends-value", t.getValueNode(), "extends", "only `default` (the manifest shipped with Warden) can be extended, found "
                    + describe(t.getValueNode()) + NearMiss.hint(String.valueOf(v), List.of(ManifestMerge.DEFAULT)), true);
            return null;
        }
        return ManifestMerge.overDefault();
    }

    /** {@code decision_log: {reasons: verbatim|hashed}}; whether reasons are recorded as written (the default). */
    private boolean readDecisionLog(NodeTuple t) {
        if (t == null) {
            return true;
        }
        if (!(t.getValueNode() instanceof MappingNode m)) {
            yaml.error("wrong-type", t.getValueNode(), "decision_log", "a mapping, e.g. {reasons: verbatim}", true);
            return false;
        }
        Map<String, NodeTuple> keys = yaml.entries(m, "decision_log");
        for (String k : keys.keySet()) {
            if (!"reasons".equals(k)) {
                yaml.error("unknown-key", keys.get(k).getKeyNode(), "decision_log." + k, "unknown decision_log key; known: reasons", true);
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
            yaml.error("bad-value", reasons.getValueNode(), "decision_log.reasons", "'" + v + "' is not hashed or verbatim", true);
        }
        return false;
    }

    private void checkSchemaVersion(NodeTuple t) {
        if (t == null) {
            yaml.error("missing-key", null, "schema_version", "missing; this reader understands schema_version: 1", true);
            return;
        }
        Object v = scalar(t.getValueNode());
        if (!(v instanceof Long n) || n != 1) {
            yaml.error("bad-value", t.getValueNode(), "schema_version", "must be 1, found " + describe(t.getValueNode()), true);
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
}
