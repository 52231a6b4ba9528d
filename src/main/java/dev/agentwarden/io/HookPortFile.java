package dev.agentwarden.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;

/**
 * {@code http-hooks} in the private resident directory: {@code PORT TOKEN}, one line, mode 0600,
 * written by {@code warden install --transport http}. It is believed only when the directory passes
 * {@link OwnedPath} and the file is a regular file (not a link) with no group or other permission
 * bits, at most {@link #MAX_BYTES} long, holding a port of 1..65535 and a 64-digit lower-case hex token.
 */
public final class HookPortFile {
    public static final String NAME = "http-hooks";
    /** The environment variable through which a host's HTTP hooks send the token. */
    public static final String TOKEN_VARIABLE = "WARDEN_HOOK_TOKEN";
    static final int MAX_BYTES = 256;

    private HookPortFile() {
    }

    /** The configured hook port and its token. */
    public record Entry(int port, String token) {
    }

    /** The resident directory under Warden's cache ({@link CacheDir}). */
    public static Path residentDir(java.util.Map<String, String> env) {
        return CacheDir.root(env).resolve("resident");
    }

    /** The entry in {@code residentDir}, or {@code null} when there is none or it is not this user's alone. */
    public static Entry read(Path residentDir) {
        Path file = residentDir.resolve(NAME);
        try {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || OwnedPath.problem(residentDir) != null) {
                return null;
            }
            PosixFileAttributes attrs = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            for (PosixFilePermission p : attrs.permissions()) {
                if (p != PosixFilePermission.OWNER_READ && p != PosixFilePermission.OWNER_WRITE
                        && p != PosixFilePermission.OWNER_EXECUTE) {
                    return null;
                }
            }
            if (attrs.size() > MAX_BYTES) {
                return null;
            }
            return parse(new String(Files.readAllBytes(file), StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** {@code "PORT TOKEN\n"} as an entry, or {@code null} when it is not one. */
    static Entry parse(String text) {
        String line = text.strip();
        int space = line.indexOf(' ');
        if (space < 1 || space > 5 || line.length() - space - 1 != 64) {
            return null;
        }
        int port = 0;
        for (int i = 0; i < space; i++) {
            char c = line.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
            port = port * 10 + (c - '0');
        }
        for (int i = space + 1; i < line.length(); i++) {
            char c = line.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return null;
            }
        }
        return port >= 1 && port <= 65535 ? new Entry(port, line.substring(space + 1)) : null;
    }
}
