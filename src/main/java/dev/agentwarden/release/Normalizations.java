package dev.agentwarden.release;

import dev.agentwarden.digest.Sha256;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Normalization profiles: byte transforms applied before hashing so that a registered release
 * matches real installs whose bytes legitimately differ per install.
 *
 * <p>{@code squad-template} masks what Squad rewrites on init/upgrade (squad.md):
 * <ul>
 *   <li>the version in the stamp lines {@code <!-- version: X -->}, {@code - **Version:** X} and
 *       {@code `Squad vX`} becomes {@code *}; X is a stamped version
 *       ({@code [0-9.]+(-[a-z]+(.N)?)?}) or the template's {@code {version}} placeholder, so a
 *       template and an install stamped from it normalize alike. The rest of each line is kept;</li>
 *   <li>everything between {@code <!-- SQUAD:TEAM-CAPABILITIES:BEGIN -->} and the next
 *       {@code <!-- SQUAD:TEAM-CAPABILITIES:END -->} becomes one line break (a BEGIN without an END
 *       is left as is);</li>
 *   <li>CRLF line endings become LF, as a checkout with {@code core.autocrlf} rewrites them.</li>
 * </ul>
 * Bytes are processed one byte per character (ISO-8859-1), so non-ASCII and even invalid UTF-8
 * content passes through unchanged. The raw SHA-256 is always recorded beside the normalized one.
 */
public final class Normalizations {
    static final String SQUAD_TEMPLATE = "squad-template";
    static final List<String> NAMES = List.of(SQUAD_TEMPLATE);

    private static final String VERSION = "(?:[0-9.]+(?:-[a-z]+(?:\\.\\d+)?)?|\\{version\\})";
    private static final Pattern VERSION_COMMENT = Pattern.compile("<!-- version: " + VERSION + " -->");
    private static final Pattern VERSION_BULLET = Pattern.compile("- \\*\\*Version:\\*\\* " + VERSION);
    private static final Pattern SQUAD_V = Pattern.compile("`Squad v" + VERSION + "`");
    private static final String BLOCK_BEGIN = "<!-- SQUAD:TEAM-CAPABILITIES:BEGIN -->";
    private static final String BLOCK_END = "<!-- SQUAD:TEAM-CAPABILITIES:END -->";

    private Normalizations() {
    }

    /** SHA-256 of {@code bytes} under every profile, by profile name. */
    public static Map<String, String> digests(byte[] bytes) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String profile : NAMES) {
            out.put(profile, Sha256.hex(apply(profile, bytes)));
        }
        return out;
    }

    /**
     * The normalized bytes of {@code source} under a profile.
     *
     * @throws IllegalArgumentException for an unknown profile name
     */
    static byte[] apply(String profile, byte[] source) {
        if (!SQUAD_TEMPLATE.equals(profile)) {
            throw new IllegalArgumentException("unknown normalization profile '" + profile + "'; known: " + NAMES);
        }
        String text = new String(source, StandardCharsets.ISO_8859_1).replace("\r\n", "\n");
        text = VERSION_COMMENT.matcher(text).replaceAll("<!-- version: * -->");
        text = VERSION_BULLET.matcher(text).replaceAll("- **Version:** *");
        text = SQUAD_V.matcher(text).replaceAll("`Squad v*`");
        StringBuilder out = new StringBuilder(text.length());
        int from = 0;
        while (true) {
            int begin = text.indexOf(BLOCK_BEGIN, from);
            if (begin < 0) {
                break;
            }
            int end = text.indexOf(BLOCK_END, begin + BLOCK_BEGIN.length());
            if (end < 0) {
                break;
            }
            out.append(text, from, begin + BLOCK_BEGIN.length()).append('\n');
            from = end;
        }
        out.append(text, from, text.length());
        return out.toString().getBytes(StandardCharsets.ISO_8859_1);
    }
}
