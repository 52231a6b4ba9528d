package dev.agentwarden.integrity;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.integrity.GateSession.ReadStatus;
import dev.agentwarden.integrity.IntegrityEvent.PayloadReadStatus;
import dev.agentwarden.integrity.agentfile.BoundaryProfile;
import dev.agentwarden.release.Normalizations;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Reads an agent file exactly once, within a byte limit, and produces the bytes together with the
 * {@code payload_read_status} evidence.
 *
 * <p>A change while reading is detected by taking the file's size, mtime, ctime and identity (device
 * and inode) before opening and again after the last byte, and by comparing the open channel's size
 * at both ends with the byte count. Any difference makes the read unstable: LOADED with
 * {@code source_stable=false} (judged UNKNOWN), or TRUNCATED when fewer bytes arrived than the file
 * held at open. ctime cannot be set from user space, so a same-size rewrite that restores the mtime
 * is still caught; only a rewrite inside one ctime tick (nanoseconds on ext4, tmpfs, btrfs, xfs) could
 * slip through.
 *
 * <p>A symbolic link is followed, as the hosts' own resolvers do: the evidence records the resolved
 * target ({@code real_path}), the target must be a regular file, and a dangling link is ABSENT
 * ({@code dangling_symlink}). The bytes are hashed as read, so following a link cannot make a
 * different artifact pass as the registered one; it only changes where the bytes came from, which
 * the evidence says.
 */
final class SourceReader {
    /** Default cap on agent-file bytes; Squad's coordinator is about 83 KB. */
    public static final long DEFAULT_MAX_BYTES = 1024 * 1024;
    /** Largest cap accepted. */
    public static final long MAX_MAX_BYTES = 64L * 1024 * 1024;

    private static final Pattern VERSION = Pattern.compile("[0-9.]+(?:-[a-z]+(?:\\.\\d+)?)?");

    /** Called after each chunk is read; lets tests change the file mid-read. */
    interface ReadObserver {
        void afterChunk(long bytesSoFar) throws IOException;
    }

    private final long maxBytes;
    private final int chunkBytes;
    private final ReadObserver observer;

    public SourceReader(long maxBytes) {
        this(maxBytes, 64 * 1024, null);
    }

    SourceReader(long maxBytes, int chunkBytes, ReadObserver observer) {
        if (maxBytes < 1 || maxBytes > MAX_MAX_BYTES) {
            throw new IllegalArgumentException("max bytes must be within 1.." + MAX_MAX_BYTES + ", got " + maxBytes);
        }
        this.maxBytes = maxBytes;
        this.chunkBytes = chunkBytes;
        this.observer = observer;
    }

    /**
     * The result of one read: the bytes (never {@code null}; empty when nothing was read) and their
     * evidence.
     */
    public record SourceRead(byte[] bytes, PayloadReadStatus event) {
    }

    /** Reads {@code file} once; never throws for a missing, unreadable or odd file. */
    public SourceRead read(Path file, BoundaryProfile profile) {
        BasicFileAttributes link;
        try {
            link = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return absent("not_found: " + file + " does not exist", null);
        } catch (IOException e) {
            return absent("unreadable: " + describe(e), null);
        }
        Path target = file;
        String realPath = null;
        if (link.isSymbolicLink()) {
            try {
                target = file.toRealPath();
                realPath = target.toString();
            } catch (NoSuchFileException e) {
                return absent("dangling_symlink: " + file + " points to a file that does not exist", null);
            } catch (IOException e) {
                return absent("symlink_unresolvable: " + describe(e), null);
            }
        }
        Snapshot before;
        try {
            before = Snapshot.of(target);
        } catch (IOException e) {
            return absent("unreadable: " + describe(e), realPath);
        }
        if (!before.regular) {
            return absent("not_regular_file: " + file + (before.directory ? " is a directory" : " is not a regular file"), realPath);
        }
        byte[] buf;
        int total = 0;
        long sizeAtOpen;
        long sizeAtEnd;
        boolean eof = false;
        boolean overLimit = false;
        String readError = null;
        try (SeekableByteChannel ch = Files.newByteChannel(target, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            sizeAtOpen = ch.size();
            buf = new byte[(int) Math.min(maxBytes, Math.max(sizeAtOpen, 0) + 1)];
            try {
                while (true) {
                    if (total == maxBytes) {
                        ByteBuffer probe = ByteBuffer.allocate(1);
                        if (ch.read(probe) < 0) {
                            eof = true;
                        } else {
                            overLimit = true;
                        }
                        break;
                    }
                    if (total == buf.length) {
                        buf = Arrays.copyOf(buf, (int) Math.min(maxBytes, buf.length * 2L));
                    }
                    int n = ch.read(ByteBuffer.wrap(buf, total, Math.min(chunkBytes, buf.length - total)));
                    if (n < 0) {
                        eof = true;
                        break;
                    }
                    total += n;
                    if (observer != null) {
                        observer.afterChunk(total);
                    }
                }
            } catch (IOException e) {
                readError = "read_error: " + describe(e);
            }
            sizeAtEnd = ch.size();
        } catch (AccessDeniedException e) {
            return absent("unreadable: permission denied on " + file, realPath);
        } catch (IOException e) {
            return absent("unreadable: " + describe(e), realPath);
        }
        Snapshot after;
        try {
            after = Snapshot.of(target);
        } catch (IOException e) {
            after = null;
        }
        byte[] bytes = Arrays.copyOf(buf, total);
        boolean stable = before.sameVersion(after) && sizeAtOpen == sizeAtEnd && eof && total == sizeAtOpen;

        ReadStatus status;
        String reason = null;
        if (readError != null) {
            reason = readError;
            status = total == 0 ? ReadStatus.ABSENT : total < sizeAtOpen ? ReadStatus.TRUNCATED : ReadStatus.LOADED;
            if (status == ReadStatus.ABSENT) {
                return absent(readError, realPath);
            }
        } else if (overLimit && sizeAtOpen > total) {
            status = ReadStatus.TRUNCATED;
            reason = "source_over_limit: the file holds " + sizeAtOpen + " bytes, the read limit is " + maxBytes;
        } else if (total < sizeAtOpen) {
            status = ReadStatus.TRUNCATED;
            reason = "source_shrank_during_read: " + sizeAtOpen + " bytes at open, " + total + " bytes before end of file";
        } else if (total == 0) {
            status = ReadStatus.EMPTY;
        } else {
            status = ReadStatus.LOADED;
            if (!stable) {
                reason = "source_changed_during_read: " + describeChange(before, after, sizeAtOpen, sizeAtEnd, total, overLimit);
            }
        }
        String sha = total > 0 ? Sha256.hex(bytes) : null;
        Map<String, String> normalized = status == ReadStatus.LOADED ? Normalizations.digests(bytes) : Map.of();
        PayloadReadStatus event = new PayloadReadStatus(status, sha, normalized, total, sizeAtOpen, eof, stable,
                total > 0 ? profile.check(bytes) : null, stampedVersion(bytes), realPath, reason);
        return new SourceRead(bytes, event);
    }

    private static SourceRead absent(String reason, String realPath) {
        return new SourceRead(new byte[0], new PayloadReadStatus(ReadStatus.ABSENT, null, Map.of(), 0, -1, false, false,
                null, null, realPath, reason));
    }

    /** The X of the first {@code <!-- version: X -->} line, X as Squad writes it; information only. */
    static String stampedVersion(byte[] bytes) {
        byte[] prefix = "<!-- version: ".getBytes(StandardCharsets.US_ASCII);
        outer:
        for (int i = 0; i + prefix.length < bytes.length; i++) {
            for (int j = 0; j < prefix.length; j++) {
                if (bytes[i + j] != prefix[j]) {
                    continue outer;
                }
            }
            int start = i + prefix.length;
            int end = start;
            while (end < bytes.length && end - start <= 64 && bytes[end] != ' ' && bytes[end] != '\n') {
                end++;
            }
            String candidate = new String(bytes, start, end - start, StandardCharsets.US_ASCII);
            if (end + 4 <= bytes.length && bytes[end] == ' ' && bytes[end + 1] == '-' && bytes[end + 2] == '-'
                    && bytes[end + 3] == '>' && VERSION.matcher(candidate).matches()) {
                return candidate;
            }
        }
        return null;
    }

    private static String describe(IOException e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + e.getMessage());
    }

    private static String describeChange(Snapshot before, Snapshot after, long sizeAtOpen, long sizeAtEnd, int total,
                                         boolean overLimit) {
        if (after == null) {
            return "the file disappeared while being read";
        }
        if (overLimit || total > sizeAtOpen || sizeAtEnd != sizeAtOpen) {
            return "size went from " + sizeAtOpen + " to " + sizeAtEnd + " bytes while " + total + " were read";
        }
        if (!Objects.equals(before.fileKey, after.fileKey)) {
            return "the path now names a different file (replaced while reading)";
        }
        return "mtime/ctime changed while reading";
    }

    /** What identifies one version of a file: size, mtime, ctime and identity. */
    private record Snapshot(long size, Object mtime, Object ctime, Object fileKey, boolean regular, boolean directory) {
        static Snapshot of(Path path) throws IOException {
            BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class);
            Object ctime = null;
            try {
                ctime = Files.getAttribute(path, "unix:ctime");
            } catch (UnsupportedOperationException | IllegalArgumentException e) {
                // no unix view on this file system; size, mtime and identity still apply
            }
            return new Snapshot(a.size(), a.lastModifiedTime(), ctime, a.fileKey(), a.isRegularFile(), a.isDirectory());
        }

        /** Field by field (a record's generated equals costs an invokedynamic bootstrap at start-up). */
        boolean sameVersion(Snapshot other) {
            return other != null && size == other.size && Objects.equals(mtime, other.mtime)
                    && Objects.equals(ctime, other.ctime) && Objects.equals(fileKey, other.fileKey)
                    && regular == other.regular && directory == other.directory;
        }
    }
}
