package dev.agentwarden.policytest;

import dev.agentwarden.json.Json;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes a policy test file ({@link CaseFile}) that pins the verdicts recorded events get today:
 * {@code warden test --from-capture}. A capture file is named by {@code payload_file} (relative to
 * the test file), so its prompts and tool inputs are not copied; a session-file line is inlined.
 */
public final class CaseWriter {
    private CaseWriter() {
    }

    /** One pinned case: the event and the verdict it got. */
    public record Pinned(CapturedEvent event, String verdict) {
    }

    /**
     * The YAML text of a test file at {@code target}.
     *
     * @param from     what the events were read from, for the header
     * @param manifest the manifest whose verdicts are pinned, for the header
     */
    public static String yaml(Path target, Path from, String manifest, List<Pinned> pinned) {
        Path dir = target.toAbsolutePath().normalize().getParent();
        StringBuilder sb = new StringBuilder();
        sb.append("# Written by `warden test --from-capture ").append(oneLine(from.toString())).append("`: each case expects\n");
        sb.append("# the verdict the manifest then in force gave (").append(oneLine(String.valueOf(manifest)))
                .append(").\n# Run it with `warden test ").append(oneLine(target.toString()))
                .append("`; a case that fails is a verdict that changed.\n");
        sb.append("cases:\n");
        for (Pinned p : pinned) {
            CapturedEvent e = p.event();
            sb.append("  - name: ");
            quote(sb, e.label());
            sb.append("\n    host: ");
            quote(sb, e.host());
            sb.append("\n    event: ");
            quote(sb, e.nativeEvent());
            if (e.file() != null) {
                sb.append("\n    payload_file: ");
                quote(sb, dir.relativize(e.file().toAbsolutePath().normalize()).toString());
            } else {
                sb.append("\n    payload: ").append(new String(e.payload(), java.nio.charset.StandardCharsets.UTF_8));
            }
            sb.append("\n    verdict: ").append(p.verdict()).append('\n');
        }
        return sb.toString();
    }

    /** A JSON string literal, which is also a YAML double-quoted scalar. */
    private static void quote(StringBuilder sb, String s) {
        Json.quote(sb, s);
    }

    private static String oneLine(String s) {
        return s.replace('\n', ' ').replace('\r', ' ');
    }
}
