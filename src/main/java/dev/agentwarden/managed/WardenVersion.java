package dev.agentwarden.managed;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * This Warden's version, as the build wrote it into {@code build.properties}, and the dotted
 * comparison {@code min_version} needs: up to three numeric parts, a missing part is 0, and a
 * pre-release ({@code 0.9.0-SNAPSHOT}) is older than its release.
 */
final class WardenVersion {
    private static final String RESOURCE = "/dev/agentwarden/build.properties";
    private static final int MAX_PART = 1_000_000;

    private WardenVersion() {
    }

    /** The running version, or {@code null} when the build did not say. */
    static String current() {
        try (InputStream in = WardenVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return null;
            }
            String text = new String(in.readNBytes(4096), StandardCharsets.UTF_8);
            for (String line : text.split("\n")) {
                if (line.startsWith("version=")) {
                    String v = line.substring("version=".length()).strip();
                    return v.isEmpty() || v.contains("${") ? null : v;
                }
            }
            return null;
        } catch (IOException e) {
            return null;
        }
    }

    /** Whether {@code version} is older than {@code minimum}; a version that cannot be read counts as older. */
    static boolean older(String version, String minimum) {
        int[] have = version == null ? null : parts(version);
        int[] need = parts(minimum);
        if (have == null) {
            return true;
        }
        for (int i = 0; i < 3; i++) {
            if (have[i] != need[i]) {
                return have[i] < need[i];
            }
        }
        return have[3] < need[3];
    }

    /**
     * {@code [major, minor, patch, release]} of {@code v} ("1", "1.2", "1.2.3", each maybe with a
     * {@code -suffix}; release is 0 with a suffix, 1 without), or {@code null} when it is not such a version.
     */
    static int[] parts(String v) {
        int dash = v.indexOf('-');
        String numbers = dash < 0 ? v : v.substring(0, dash);
        if (dash == 0 || dash == v.length() - 1) {
            return null;
        }
        int[] out = {0, 0, 0, dash < 0 ? 1 : 0};
        int part = 0;
        int value = -1;
        for (int i = 0; i <= numbers.length(); i++) {
            char c = i < numbers.length() ? numbers.charAt(i) : '.';
            if (c == '.') {
                if (value < 0 || part > 2) {
                    return null;
                }
                out[part++] = value;
                value = -1;
            } else if (c >= '0' && c <= '9') {
                value = (value < 0 ? 0 : value * 10) + (c - '0');
                if (value > MAX_PART) {
                    return null;
                }
            } else {
                return null;
            }
        }
        return out;
    }
}
