package dev.agentwarden.manifest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/**
 * Typed access to one manifest's composed YAML nodes, and the problems found while reading them.
 * A value of the wrong type is reported here, with file, line and key, and read as absent; the
 * schema checks ({@link ConcernSchema}, {@link ChainSchema}) and {@link ManifestCompiler} add theirs
 * through {@link #error} and {@link #warn}, so all problems keep the order they were found in.
 */
final class ManifestNodes {
    private final String file;
    private final List<ManifestProblem> problems = new ArrayList<>();
    /**
     * The manifest is recognisably agent-config's ({@code schema_version: 1} and its TypeScript
     * hook scripts): keys Warden does not know are warnings there, so its manifests load unchanged.
     */
    private boolean agentConfig;

    ManifestNodes(String file) {
        this.file = file;
    }

    String file() {
        return file;
    }

    boolean agentConfig() {
        return agentConfig;
    }

    void agentConfig(boolean agentConfig) {
        this.agentConfig = agentConfig;
    }

    List<ManifestProblem> problems() {
        return List.copyOf(problems);
    }

    boolean anyFatal() {
        for (ManifestProblem p : problems) {
            if (p.fatal()) {
                return true;
            }
        }
        return false;
    }

    /** Keys of a mapping in order; duplicate or non-string keys are reported. */
    Map<String, NodeTuple> entries(MappingNode map, String path) {
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

    String string(Node node, String path, boolean required) {
        if (node instanceof ScalarNode s && s.getTag().equals(Tag.STR)) {
            return s.getValue();
        }
        if (node instanceof ScalarNode s && s.getTag().equals(Tag.NULL) && !required) {
            return null;
        }
        error("wrong-type", node, path, "must be a string, found " + describe(node), true);
        return null;
    }

    List<String> stringList(NodeTuple t, String path) {
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

    boolean bool(NodeTuple t, String path, boolean fallback) {
        if (t == null) {
            return fallback;
        }
        if (scalar(t.getValueNode()) instanceof Boolean b) {
            return b;
        }
        error("wrong-type", t.getValueNode(), path, "must be true or false, found " + describe(t.getValueNode()), true);
        return fallback;
    }

    long integer(NodeTuple t, String path, long fallback) {
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
    static Object scalar(Node node) {
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
    static Object plain(Node node) {
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

    static String describe(Node node) {
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

    static int line(Node node) {
        return node == null ? 0 : node.getStartMark().map(m -> m.getLine() + 1).orElse(0);
    }

    /** A problem with its stable {@code code} (kebab-case, listed in the README), at the node's line. */
    void error(String code, Node node, String key, String message, boolean fatal) {
        problems.add(new ManifestProblem(file, line(node), key, message, ManifestProblem.Kind.ERROR, fatal, code));
    }

    void warn(String code, Node node, String key, String message) {
        problems.add(new ManifestProblem(file, line(node), key, message, ManifestProblem.Kind.WARNING, false, code));
    }

    /** A key Warden does not know: an error, or a warning in an agent-config manifest. */
    void unknownKey(String code, Node node, String key, String message) {
        if (agentConfig) {
            warn(code, node, key, message);
        } else {
            error(code, node, key, message, true);
        }
    }

    /** The text is not a manifest at all; the message is short, the one problem holds the detail. */
    ManifestException unreadable(String code, int line, String key, String message) {
        ManifestProblem p = new ManifestProblem(file, line, key, message, ManifestProblem.Kind.ERROR, true, code);
        return new ManifestException(file + ": not a readable manifest", List.of(p), true);
    }
}
