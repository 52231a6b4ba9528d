package dev.agentwarden.trust;

import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.digest.Sha256;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.io.UnsafeFileException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The files a process concern names, and their SHA-256: its {@code script}, and each argument
 * that is an existing regular file, both relative to the project root (as the concern runs).
 * What those files load in turn is not covered.
 */
final class NamedFiles {
    /** Largest file hashed; a larger one cannot be trusted. */
    static final long MAX_BYTES = 64L * 1024 * 1024;
    /** The hash of a file over {@link #MAX_BYTES}: such a file never runs ({@link #unhashable}). */
    static final String TOO_LARGE = "too-large";
    /** How the hash of a file that cannot be read starts: such a file never runs. */
    static final String UNREADABLE = "unreadable: ";
    /** Files up to this size are hashed with {@link Sha256} (no security providers on dispatch). */
    static final int SMALL_BYTES = 64 * 1024;

    private NamedFiles() {
    }

    /** Every file the manifest's process concerns name → hash, or {@link TrustRecord#ABSENT} for a missing script. */
    static Map<String, String> of(Manifest manifest, Path root) {
        Map<String, String> files = new LinkedHashMap<>();
        for (ConcernSpec spec : manifest.concerns().values()) {
            if (spec.isBuiltin()) {
                continue;
            }
            files.put(spec.script(), hashOrAbsent(root, spec.script()));
            for (String arg : spec.args()) {
                String hash = hashOrAbsent(root, arg);
                if (!hash.equals(TrustRecord.ABSENT)) {
                    files.put(arg, hash);
                }
            }
        }
        return files;
    }

    /**
     * Hex SHA-256 of {@code root/name} when it is a regular file (a link is followed to one), else
     * {@link TrustRecord#ABSENT}; {@link #TOO_LARGE} over {@link #MAX_BYTES}, told by its size
     * before any byte is read. A FIFO or device is never opened.
     */
    static String hashOrAbsent(Path root, String name) {
        Path file;
        try {
            file = root.resolve(name);
        } catch (InvalidPathException notAPath) {
            return TrustRecord.ABSENT;
        }
        if (!Files.isRegularFile(file)) {
            return TrustRecord.ABSENT;
        }
        try (FileChannel ch = StateFiles.openRead(file, true)) {
            if (ch.size() > MAX_BYTES) {
                return TOO_LARGE;
            }
            InputStream in = Channels.newInputStream(ch);
            byte[] head = in.readNBytes(SMALL_BYTES + 1);
            if (head.length <= SMALL_BYTES) {
                return Sha256.hex(head);
            }
            return largeHash(head, in);
        } catch (NoSuchFileException | UnsafeFileException swappedSinceTheCheck) {
            return TrustRecord.ABSENT;
        } catch (IOException e) {
            return UNREADABLE + e.getMessage();
        }
    }

    /** Whether {@code hash} says the file could not be hashed (too large, unreadable): never trusted. */
    static boolean unhashable(String hash) {
        return hash.equals(TOO_LARGE) || hash.startsWith(UNREADABLE);
    }

    /**
     * SHA-256 of a file over {@link #SMALL_BYTES} (an interpreter binary, say) with the JDK's
     * intrinsic digest, whose one-time provider set-up costs less than hashing megabytes in plain Java.
     */
    private static String largeHash(byte[] head, InputStream rest) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IOException("no SHA-256 in this JDK", e);
        }
        digest.update(head);
        long total = head.length;
        byte[] buf = new byte[64 * 1024];
        int n;
        while ((n = rest.read(buf)) > 0) {
            total += n;
            if (total > MAX_BYTES) {
                return TOO_LARGE;
            }
            digest.update(buf, 0, n);
        }
        StringBuilder hex = new StringBuilder(64);
        for (byte b : digest.digest()) {
            hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return hex.toString();
    }
}
