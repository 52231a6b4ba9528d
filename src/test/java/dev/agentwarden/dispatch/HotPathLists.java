package dev.agentwarden.dispatch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The hot-path paragraph of a {@code package-info.java}: {@code <p>On the dispatch hot path
 * (HotPathClassLoadIT checks this list): A, B, C.} naming the package's top-level classes that a
 * default-manifest dispatch loads.
 */
final class HotPathLists {
    static final String MARKER = "<p>On the dispatch hot path (HotPathClassLoadIT checks this list): ";
    private static final int WIDTH = 100;

    private HotPathLists() {
    }

    /** One line per package whose list is missing, wrong, or present though none of its classes is hot. */
    static List<String> mismatches(Path sources, Map<String, Set<String>> hot) throws IOException {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Set<String>> e : hot.entrySet()) {
            Path info = infoOf(sources, e.getKey());
            Set<String> listed = Files.isRegularFile(info) ? listed(Files.readString(info, StandardCharsets.UTF_8)) : null;
            if (listed == null) {
                out.add(e.getKey() + ": no hot-path list in " + sources.relativize(info) + "; loaded " + e.getValue());
            } else if (!listed.equals(e.getValue())) {
                out.add(e.getKey() + ": lists " + listed + ", loaded " + e.getValue());
            }
        }
        for (Path info : infos(sources)) {
            String pkg = sources.relativize(info.getParent()).toString().replace('/', '.');
            if (!hot.containsKey(pkg) && listed(Files.readString(info, StandardCharsets.UTF_8)) != null) {
                out.add(pkg + ": lists hot classes, but a default-manifest dispatch loads none of its classes");
            }
        }
        return out;
    }

    /** Rewrites (or adds) each hot package's paragraph; removes it where no class is hot. */
    static void write(Path sources, Map<String, Set<String>> hot) throws IOException {
        for (Map.Entry<String, Set<String>> e : hot.entrySet()) {
            Path info = infoOf(sources, e.getKey());
            String text = Files.isRegularFile(info) ? Files.readString(info, StandardCharsets.UTF_8)
                    : "/**\n * TODO describe the package.\n */\npackage " + e.getKey() + ";\n";
            Files.writeString(info, withList(without(text), e.getValue()), StandardCharsets.UTF_8);
        }
        for (Path info : infos(sources)) {
            String pkg = sources.relativize(info.getParent()).toString().replace('/', '.');
            String text = Files.readString(info, StandardCharsets.UTF_8);
            if (!hot.containsKey(pkg) && listed(text) != null) {
                Files.writeString(info, without(text), StandardCharsets.UTF_8);
            }
        }
    }

    /** The names the paragraph lists, or {@code null} when there is none. */
    static Set<String> listed(String text) {
        int at = text.indexOf(MARKER);
        if (at < 0) {
            return null;
        }
        int end = text.indexOf('.', at + MARKER.length());
        Set<String> out = new TreeSet<>();
        for (String name : text.substring(at + MARKER.length(), end).split(",")) {
            String n = name.replace("*", "").strip();
            if (!n.isEmpty()) {
                out.add(n);
            }
        }
        return out;
    }

    private static String without(String text) {
        int at = text.indexOf(" *\n * " + MARKER);
        if (at < 0) {
            return text;
        }
        int end = text.indexOf(".\n", at + MARKER.length()) + 2;
        return text.substring(0, at) + text.substring(end);
    }

    private static String withList(String text, Set<String> names) {
        StringBuilder para = new StringBuilder(" *\n");
        StringBuilder line = new StringBuilder(" * " + MARKER.strip());
        int i = 0;
        for (String n : names) {
            String word = n + (++i == names.size() ? "." : ",");
            if (line.length() + 1 + word.length() > WIDTH) {
                para.append(line).append('\n');
                line = new StringBuilder(" *");
            }
            line.append(' ').append(word);
        }
        para.append(line).append('\n');
        int close = text.indexOf(" */");
        return text.substring(0, close) + para + text.substring(close);
    }

    private static Path infoOf(Path sources, String pkg) {
        return sources.resolve(pkg.replace('.', '/')).resolve("package-info.java");
    }

    private static List<Path> infos(Path sources) throws IOException {
        try (Stream<Path> s = Files.walk(sources)) {
            return s.filter(p -> p.getFileName().toString().equals("package-info.java")).toList();
        }
    }
}
