package dev.agentwarden.release;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Normalization profiles: byte transforms applied before hashing so that a registered release
 * matches real installs whose bytes legitimately differ per install.
 *
 * <p>{@code squad-template} masks what Squad rewrites on init/upgrade (squad.md): the version stamp
 * lines ({@code <!-- version: X -->}, {@code - **Version:** X}, {@code `Squad vX`}) and the content
 * between {@code <!-- SQUAD:TEAM-CAPABILITIES:BEGIN -->} and {@code <!-- SQUAD:TEAM-CAPABILITIES:END -->}.
 * The raw source SHA is always recorded beside the normalized one.
 */
public final class Normalizations {
    public static final String SQUAD_TEMPLATE = "squad-template";
    public static final List<String> NAMES = List.of(SQUAD_TEMPLATE);

    private static final Pattern VERSION_COMMENT =
            Pattern.compile("<!-- version: [0-9.]+(?:-[a-z]+(?:\\.\\d+)?)? -->");
    private static final Pattern VERSION_BULLET =
            Pattern.compile("- \\*\\*Version:\\*\\* [0-9.]+(?:-[a-z]+(?:\\.\\d+)?)?");
    private static final Pattern SQUAD_V =
            Pattern.compile("`Squad v[0-9.]+(?:-[a-z]+(?:\\.\\d+)?)?`");
    private static final String BLOCK_BEGIN = "<!-- SQUAD:TEAM-CAPABILITIES:BEGIN -->";
    private static final String BLOCK_END = "<!-- SQUAD:TEAM-CAPABILITIES:END -->";

    private Normalizations() {
    }

    /**
     * The normalized bytes of {@code source} under a profile.
     *
     * @throws IllegalArgumentException for an unknown profile name
     */
    public static byte[] apply(String profile, byte[] source) {
        if (!SQUAD_TEMPLATE.equals(profile)) {
            throw new IllegalArgumentException("unknown normalization profile '" + profile + "'; known: " + NAMES);
        }
        String text = new String(source, StandardCharsets.UTF_8);
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
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }
}
