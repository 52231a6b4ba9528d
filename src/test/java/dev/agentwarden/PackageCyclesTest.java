package dev.agentwarden;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packages under {@code dev.agentwarden} form no cycle. The graph is read from the compiled main
 * classes: every {@code dev/agentwarden/...} class name in a class file's constant pool (class
 * references, field and method descriptors, generic signatures) is an edge from the class's package
 * to that name's package. Constants the compiler inlines leave no trace, which only hides an edge
 * that carries no behaviour. A host's folder counts as part of {@code host}, and its setup folder as part of {@code install} ({@link #packageOf}). The
 * graph and every cycle, with one class reference per edge, are printed, so a failure shows what to cut.
 */
class PackageCyclesTest {
    private static final String ROOT = "dev.agentwarden";
    /** For each edge, the first class reference that makes it. */
    private static final Map<String, String> EXAMPLES = new TreeMap<>();
    /** A class name in a constant (a resource path such as {@code dev/agentwarden/build.properties} is not one). */
    private static final Pattern NAME = Pattern.compile("dev/agentwarden/((?:[a-z0-9_]+/)*)[A-Z][A-Za-z0-9_$]*(?![A-Za-z0-9_$.])");

    @Test
    void packages_underAgentWarden_formNoCycle() throws IOException, URISyntaxException {
        Map<String, Set<String>> graph = graph(classesDir());
        System.out.println("package dependency graph (" + ROOT + ".*):");
        System.out.print(render(graph));

        List<Set<String>> cycles = cycles(graph);
        for (Set<String> cycle : cycles) {
            System.out.println("cycle among " + cycle + ":");
            for (String from : cycle) {
                for (String to : graph.get(from)) {
                    if (cycle.contains(to)) {
                        System.out.println("  " + from + " -> " + to + "   (" + EXAMPLES.get(from + " -> " + to) + ")");
                    }
                }
            }
        }

        assertThat(cycles).as("package cycles").isEmpty();
    }

    /** The decision log records the chain's result; the chain's result does not live in dispatch, which writes the log. */
    @Test
    void decisionLog_namesNoDispatchClass() throws IOException, URISyntaxException {
        assertThat(graph(classesDir()).get("decision")).doesNotContain("dispatch");
    }

    /**
     * The hosts' records read the inventory's facts from no inventory class: the TOML reader Codex's trust gate
     * uses has a package of its own, so {@code inventory} may read {@code Hosts.ALL} without a cycle.
     */
    /** Setup reads the hosts' runtime records; a dispatch, which reads those records, never reaches setup. */
    @Test
    void host_namesNoInstallClass() throws IOException, URISyntaxException {
        assertThat(graph(classesDir()).get("host")).doesNotContain("install");
    }

    @Test
    void host_withCodexTomlReader_namesNoInventoryClass() throws IOException, URISyntaxException {
        assertThat(graph(classesDir()).get("host")).doesNotContain("inventory");
    }

    /**
     * The concern model names no built-in, nor a package a built-in is made of: the built-ins are a
     * package of their own beside it, not one under it, so {@code guard}, {@code inventory} and
     * {@code rule}, which implement the model, close no cycle through it. The sources are read too:
     * an import a class file keeps no trace of (one for a Javadoc link) still ties the packages.
     */
    @Test
    void concernModel_namesNoBuiltinNorWhatBuiltinsAreMadeOf() throws IOException, URISyntaxException {
        Map<String, Set<String>> graph = graph(classesDir());

        assertThat(graph.get("concern")).doesNotContain("builtin", "guard", "inventory", "rule", "manifest", "dispatch");
        assertThat(graph.keySet()).noneMatch(p -> p.startsWith("concern."));
        List<String> imports = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("src/main/java/dev/agentwarden/concern"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                for (String line : Files.readAllLines(f)) {
                    if (line.startsWith("import dev.agentwarden.") && !line.startsWith("import dev.agentwarden.concern.")
                            && !line.startsWith("import dev.agentwarden.event.")) {
                        imports.add(f.getFileName() + ": " + line);
                    }
                }
            }
        }
        assertThat(imports).as("imports in the concern package's sources of packages other than event").isEmpty();
    }

    @Test
    void cycles_ofPackagesNamingEachOther_areFoundWithoutTolerance() {
        Map<String, Set<String>> toy = new TreeMap<>();
        toy.put("a", Set.of("b"));
        toy.put("b", Set.of("c"));
        toy.put("c", Set.of("a"));
        toy.put("d", Set.of("a"));

        assertThat(cycles(toy)).containsExactly(Set.of("a", "b", "c"));
    }

    private static Path classesDir() throws URISyntaxException {
        return Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /** Package (relative to {@link #ROOT}, "" for the root) to the other packages its classes name. */
    static Map<String, Set<String>> graph(Path classes) throws IOException {
        Map<String, Set<String>> graph = new TreeMap<>();
        EXAMPLES.clear();
        Path root = classes.resolve("dev/agentwarden");
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(p -> p.toString().endsWith(".class")).sorted().toList();
        }
        for (Path file : files) {
            String from = packageOf(root.relativize(file.getParent()).toString().replace('/', '.'));
            String fromClass = root.relativize(file).toString().replace('/', '.').replace(".class", "");
            Set<String> tos = graph.computeIfAbsent(from, k -> new TreeSet<>());
            for (String utf8 : utf8Constants(file)) {
                Matcher m = NAME.matcher(utf8);
                while (m.find()) {
                    String to = packageOf(m.group(1).replace('/', '.'));
                    if (!to.equals(from)) {
                        tos.add(to);
                        EXAMPLES.putIfAbsent(from + " -> " + to, fromClass + " -> " + m.group().substring(ROOT.length() + 1).replace('/', '.'));
                    }
                }
            }
        }
        return graph;
    }

    /**
     * The graph's node for a package: {@code host.<name>} is part of {@code host}, since the one list
     * of hosts names each host's folder and each folder implements the host interface; likewise
     * {@code install.<name>} is part of {@code install}, whose one list of setups names each folder.
     */
    private static String packageOf(String relative) {
        String p = relative.endsWith(".") ? relative.substring(0, relative.length() - 1) : relative;
        if (p.startsWith("host.")) {
            return "host";
        }
        if (p.startsWith("install.")) {
            return "install";
        }
        return p.isEmpty() ? "(root)" : p;
    }

    /** The CONSTANT_Utf8 entries of one class file (JVMS 4.4). */
    private static List<String> utf8Constants(Path file) throws IOException {
        List<String> out = new ArrayList<>();
        try (InputStream raw = Files.newInputStream(file); DataInputStream in = new DataInputStream(raw)) {
            in.readInt(); // magic
            in.readUnsignedShort();
            in.readUnsignedShort();
            int count = in.readUnsignedShort();
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> out.add(in.readUTF());
                    case 7, 8, 16, 19, 20 -> in.skipBytes(2);
                    case 15 -> in.skipBytes(3);
                    case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4);
                    case 5, 6 -> {
                        in.skipBytes(8);
                        i++;
                    }
                    default -> throw new IOException(file + ": unknown constant pool tag " + tag);
                }
            }
        }
        return out;
    }

    /** Strongly connected components of more than one package (Tarjan). */
    static List<Set<String>> cycles(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> out = new ArrayList<>();
        int[] next = {0};
        for (String v : graph.keySet()) {
            if (!index.containsKey(v)) {
                connect(v, graph, index, low, stack, onStack, out, next);
            }
        }
        return out;
    }

    private static void connect(String v, Map<String, Set<String>> graph, Map<String, Integer> index,
            Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<Set<String>> out, int[] next) {
        index.put(v, next[0]);
        low.put(v, next[0]);
        next[0]++;
        stack.push(v);
        onStack.add(v);
        for (String w : graph.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                connect(w, graph, index, low, stack, onStack, out, next);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                out.add(component);
            }
        }
    }

    static String render(Map<String, Set<String>> graph) {
        StringBuilder sb = new StringBuilder();
        graph.forEach((from, tos) -> sb.append("  ").append(from).append(" -> ").append(String.join(", ", tos)).append('\n'));
        return sb.toString();
    }
}
