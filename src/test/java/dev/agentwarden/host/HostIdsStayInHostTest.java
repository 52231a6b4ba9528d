package dev.agentwarden.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Host specifics stay in {@code dev.agentwarden.host}: no main source outside it (and its host
 * folders, and each host's setup folder {@code install/<host>/}) spells a host id, or a host's
 * dot-directory ({@code ".claude"}), as a string literal, so a new host is its own folder (and its setup
 * folder) plus one line in {@link Hosts#ALL}. The few places that legitimately do are named in
 * {@link #ALLOWED}, each with its reason.
 */
class HostIdsStayInHostTest {
    private static final Path MAIN = Path.of("src/main/java/dev/agentwarden");

    /** The host ids checked: every registered and every known one, and those of hosts being added. */
    static final List<String> IDS = List.of("claude", "codex", "copilot", "gemini", "qwen", "opencode", "cline",
            "cursor", "windsurf", "augment", "cowork", "kilo");

    /** Source file (relative to {@code dev/agentwarden/}) to the host literals it may hold, and why. */
    private static final Map<String, Allowed> ALLOWED = Map.of(
            "inventory/McpSnapshotter.java", new Allowed(Set.of("\"cursor\""),
                    "MCP's own pagination field (tools/list params.cursor), not the host"),
            "launch/AgentResolver.java", new Allowed(Set.of("\".copilot\"", "\".claude\""),
                    "where `warden launch` finds a custom agent's file: issue 13.5 places Copilot's agent"
                            + " resolution in launch, and it is the gate's input, not a host hook"));

    /** Whether {@code rel} is in a host's setup folder {@code install/<host>/}, named for a registered host. */
    private static boolean isHostSetupFolder(String rel) {
        String[] parts = rel.split("/");
        return parts.length == 3 && parts[0].equals("install") && Files.isDirectory(MAIN.resolve("host").resolve(parts[1]));
    }

    @Test
    void hostSetupFolders_areNamedForAHostFolder() throws IOException {
        List<String> strays = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(MAIN.resolve("install"))) {
            for (Path d : (Iterable<Path>) dirs.filter(Files::isDirectory).sorted()::iterator) {
                if (!Files.isDirectory(MAIN.resolve("host").resolve(d.getFileName()))) {
                    strays.add(d.getFileName().toString());
                }
            }
        }
        assertThat(strays).as("folders under install/ that are no host's setup folder (host/<name>/ missing)").isEmpty();
    }

    private record Allowed(Set<String> literals, String reason) {
    }

    @Test
    void mainSources_outsideHost_nameNoHostIdOrHostDirectory() throws IOException {
        Set<String> literals = new LinkedHashSet<>();
        List<String> ids = new ArrayList<>(IDS);
        ids.addAll(Hosts.ids());
        ids.addAll(Hosts.KNOWN);
        for (String id : ids) {
            literals.add("\"" + id + "\"");
            literals.add("\"." + id + "\"");
        }
        Map<String, Set<String>> used = new TreeMap<>();
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java")).sorted()::iterator) {
                String rel = MAIN.relativize(f).toString().replace('\\', '/');
                if (rel.startsWith("host/") || isHostSetupFolder(rel)) {
                    continue;
                }
                Allowed allowed = ALLOWED.get(rel);
                List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    for (String literal : literals) {
                        if (!lines.get(i).contains(literal)) {
                            continue;
                        }
                        if (allowed != null && allowed.literals().contains(literal)) {
                            used.computeIfAbsent(rel, k -> new LinkedHashSet<>()).add(literal);
                        } else {
                            found.add(rel + ":" + (i + 1) + ": " + literal + " in " + lines.get(i).strip());
                        }
                    }
                }
            }
        }
        assertThat(found).as("host ids or host directories named outside host/ (move the fact onto the host's"
                + " Host record, or name the file in ALLOWED with the reason)").isEmpty();
        for (Map.Entry<String, Allowed> e : ALLOWED.entrySet()) {
            assertThat(used.getOrDefault(e.getKey(), Set.of())).as("ALLOWED entry %s names literals it no longer"
                    + " holds: remove them", e.getKey()).containsExactlyInAnyOrderElementsOf(e.getValue().literals());
        }
    }
}
