package dev.agentwarden.install;

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
 * Issue 13.7: the readers of a host's settings (each {@link HostTrustGate} and each {@code *Settings}
 * class under {@code install/}) read parsed JSON and TOML maps through {@code json.Fields}, not with
 * casts of their own.
 */
class HostSettingsReadersTest {
    private static final Path HOST = Path.of("src/main/java/dev/agentwarden/install");

    @Test
    void hostSettingsReaders_castNoMapsOfTheirOwn() throws IOException {
        List<String> readers = new ArrayList<>();
        List<String> casting = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(HOST)) {
            files = walk.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        for (Path file : files) {
            String source = Files.readString(file, StandardCharsets.UTF_8);
            if (!source.contains("implements HostTrustGate") && !file.getFileName().toString().endsWith("Settings.java")) {
                continue;
            }
            readers.add(file.getFileName().toString());
            if (source.contains("(Map<String, Object>)") || source.contains("instanceof Map")) {
                casting.add(HOST.relativize(file).toString());
            }
        }
        assertThat(readers).as("settings readers found").contains("CodexHookTrust.java", "GeminiHookTrust.java",
                "CopilotFolderTrust.java", "ClaudeSettings.java");
        assertThat(casting).as("settings readers casting maps themselves").isEmpty();
    }
}
