package dev.agentwarden.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Host specifics stay in {@code dev.agentwarden.host}: no main source outside it spells a host id
 * as a string literal, so a new host is its own folder plus one line in {@link Hosts#ALL}.
 */
class HostIdsStayInHostTest {
    private static final Path MAIN = Path.of("src/main/java/dev/agentwarden");

    /**
     * Packages that read host files other than hook settings and are not moved onto the registry
     * yet: {@code inventory} reads each host's MCP server configuration.
     */
    private static final List<String> NOT_YET = List.of("inventory/");

    @Test
    void mainSources_outsideHost_nameNoHostId() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                String rel = MAIN.relativize(f).toString().replace('\\', '/');
                if (rel.startsWith("host/") || NOT_YET.stream().anyMatch(rel::startsWith)) {
                    continue;
                }
                List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    for (Host h : Hosts.ALL) {
                        if (lines.get(i).contains("\"" + h.id() + "\"")) {
                            found.add(rel + ":" + (i + 1) + ": " + lines.get(i).strip());
                        }
                    }
                }
            }
        }
        assertThat(found).as("host ids named outside host/").isEmpty();
    }
}
