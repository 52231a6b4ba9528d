package dev.agentwarden.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code http-projects} in the private resident directory: the projects {@code warden install
 * --transport http} bound HTTP hooks to, one line each, {@code ID REALPATH}, mode 0600. A project's
 * hook URLs carry its {@link #id}; the resident judges an HTTP event under the project its URL is
 * bound to, and only when the file passes the checks of {@link HookPortFile} (a private directory,
 * a regular owner-only file of at most {@link #MAX_BYTES}) and the line's id is the digest of its path.
 */
public final class HookProjects {
    public static final String NAME = "http-projects";
    /** Hex digits of the id: the first 128 bits of the SHA-256 of the project's real path. */
    public static final int ID_CHARS = 32;
    static final int MAX_BYTES = 1024 * 1024;

    private HookProjects() {
    }

    /** The id of the project whose real path is {@code realRoot}. */
    public static String id(Path realRoot) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(realRoot.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, ID_CHARS);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no SHA-256 in this JVM", e);
        }
    }

    /** Whether {@code text} has the shape of an id: {@link #ID_CHARS} lower-case hex digits. */
    public static boolean isId(String text) {
        if (text == null || text.length() != ID_CHARS) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    /**
     * The project root bound to {@code id}, or {@code null} when no trusted entry names it (no
     * file, a file not this user's alone, or a line whose id is not its path's digest).
     */
    public static Path root(Path residentDir, String id) {
        return isId(id) ? read(residentDir).get(id) : null;
    }

    /** Every trusted entry, id to real path; empty when the file is absent or not trusted. */
    public static Map<String, Path> read(Path residentDir) {
        Map<String, Path> out = new LinkedHashMap<>();
        Path file = residentDir.resolve(NAME);
        try {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || OwnedPath.problem(residentDir) != null) {
                return out;
            }
            PosixFileAttributes attrs = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!ownerOnly(attrs) || attrs.size() > MAX_BYTES
                    || !OwnedPath.isPrivate(file)) {
                return out;
            }
            String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
            for (String line : text.split("\n")) {
                int space = line.indexOf(' ');
                if (space != ID_CHARS || !isId(line.substring(0, space))) {
                    continue;
                }
                Path root = Path.of(line.substring(space + 1));
                if (root.isAbsolute() && id(root).equals(line.substring(0, space))) {
                    out.put(line.substring(0, space), root);
                }
            }
        } catch (IOException | RuntimeException e) {
            out.clear();
        }
        return out;
    }

    /**
     * Adds {@code realRoot} (already a real path) to the file, rewritten atomically with mode 0600;
     * the directory must already be private.
     *
     * @return the project's id
     */
    public static String add(Path residentDir, Path realRoot) throws IOException {
        String path = realRoot.toString();
        if (!realRoot.isAbsolute() || path.indexOf('\n') >= 0 || path.indexOf('\r') >= 0) {
            throw new IOException("project path '" + path + "' cannot be bound to HTTP hooks (not absolute, or has a line break)");
        }
        String problem = OwnedPath.problem(residentDir);
        if (problem != null) {
            throw new IOException("resident directory " + residentDir + " is not private (" + problem + ")");
        }
        Map<String, Path> entries = read(residentDir);
        String id = id(realRoot);
        entries.put(id, realRoot);
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, Path> e : entries.entrySet()) {
            b.append(e.getKey()).append(' ').append(e.getValue()).append('\n');
        }
        byte[] bytes = b.toString().getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_BYTES) {
            throw new IOException(residentDir.resolve(NAME) + " would exceed " + MAX_BYTES + " bytes; remove projects no longer used");
        }
        AtomicWrite.write(residentDir.resolve(NAME), bytes, PosixFilePermissions.fromString("rw-------"));
        return id;
    }

    private static boolean ownerOnly(PosixFileAttributes attrs) {
        for (PosixFilePermission p : attrs.permissions()) {
            if (p != PosixFilePermission.OWNER_READ && p != PosixFilePermission.OWNER_WRITE
                    && p != PosixFilePermission.OWNER_EXECUTE) {
                return false;
            }
        }
        return true;
    }
}
