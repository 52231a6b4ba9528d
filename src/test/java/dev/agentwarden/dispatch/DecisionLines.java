package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.decision.DecisionLog;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Reading a test project's decision log, and masking what differs between runs of one event. */
final class DecisionLines {
    private DecisionLines() {
    }

    /** Every line of every segment of {@code project}'s decision log, oldest first. */
    static List<String> all(Path project) throws IOException {
        Path dir = DecisionLog.dir(project.toString());
        List<String> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.sorted().toList()) {
                String text = Files.readString(f, StandardCharsets.UTF_8);
                assertThat(text).as("%s ends with a whole line", f).endsWith("\n");
                for (String line : text.split("\n")) {
                    out.add(line);
                }
            }
        }
        return out;
    }

    /** The one decision line of {@code project}. */
    static String only(Path project) throws IOException {
        List<String> lines = all(project);
        assertThat(lines).as("decision lines in %s", project).hasSize(1);
        return lines.get(0);
    }

    /**
     * A decision line with its volatile values replaced: {@code ts}, every {@code elapsed_us},
     * {@code transport}, and each present {@code reason_sha256} (a reason may name the temporary
     * project); the key order and everything else are kept.
     */
    @SuppressWarnings("unchecked")
    static String masked(String line) {
        Map<String, Object> d = Json.parseObject(line);
        d.put("ts", "<ts>");
        d.put("elapsed_us", "<us>");
        d.put("transport", "<transport>");
        if (d.get("concerns") instanceof List<?> list) {
            for (Object o : list) {
                Map<String, Object> c = (Map<String, Object>) o;
                if (c.get("elapsed_us") != null) {
                    c.put("elapsed_us", "<us>");
                }
                if (c.get("reason_sha256") != null) {
                    c.put("reason_sha256", "<sha>"); // a reason may name the (per-run temporary) project
                }
                if (c.get("reason") instanceof String reason) {
                    c.put("reason", maskedText(reason)); // recorded verbatim by default: the same, the project aside
                }
            }
        }
        return Json.write(d);
    }

    /**
     * {@code text} with each per-run temporary project ({@code /tmp/warden-golden-project<digits>}) and
     * session label masked. A label ends in a random suffix, so the recorder's redaction may or may not
     * take it for a secret ({@code [REDACTED:high_entropy]}): either form is the label.
     */
    private static String maskedText(String text) {
        return text.replaceAll("warden-golden-project[0-9]+", "<project>")
                .replaceAll("session (?:[^;)]*-[0-9a-f]{8}|\\[REDACTED:[a-z_]+\\])", "session <session>");
    }

    static String transport(String line) {
        return (String) Json.parseObject(line).get("transport");
    }
}
