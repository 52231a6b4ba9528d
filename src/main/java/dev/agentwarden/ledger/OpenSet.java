package dev.agentwarden.ledger;

import dev.agentwarden.io.StateFiles;
import dev.agentwarden.io.UnsafeFileException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The open-record set as read at one instant: records younger than the TTL are live; older ones
 * are stale and excluded from every count; files that fail validation are reported and excluded.
 *
 * @param ledgerPresent whether the ledger directory exists (an absent one and an empty one differ)
 * @param live          trusted records within the TTL
 * @param stale         trusted records older than the TTL
 * @param invalid       one problem per record file that is not trusted
 */
public record OpenSet(boolean ledgerPresent, List<OpenRecord> live, List<OpenRecord> stale,
                      List<LedgerProblem> invalid) {
    /** Most record files read; a larger set is itself a problem and the rest are not counted. */
    static final int MAX_RECORDS = 10_000;

    static Path fileOf(LedgerPaths paths, String ref) {
        return paths.openDir().resolve(ref + ".json");
    }

    /** Reads the set; safe without the ledger lock, since records are replaced atomically. */
    public static OpenSet read(LedgerPaths paths, long nowMs, long ttlMs) throws IOException {
        boolean present = Files.isDirectory(paths.ledgerDir());
        List<OpenRecord> live = new ArrayList<>();
        List<OpenRecord> stale = new ArrayList<>();
        List<LedgerProblem> invalid = new ArrayList<>();
        // File.list rather than a DirectoryStream: on JDK 25 the stream's iterator initialises the
        // lambda machinery, which the dispatch path otherwise never needs. null: no directory yet.
        String[] names = StateFiles.isDirectory(paths.root(), paths.openDir()) ? paths.openDir().toFile().list() : null;
        if (names == null && Files.exists(paths.openDir(), LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("cannot list open records: " + paths.openDir() + " is not a readable directory");
        }
        if (names != null) {
            int seen = 0;
            for (String name : names) {
                Path p = paths.openDir().resolve(name);
                String ref = name.length() == 17 && name.endsWith(".json") ? name.substring(0, 12) : null;
                if (!AgentRef.isRef(ref)) {
                    continue;
                }
                if (++seen > MAX_RECORDS) {
                    invalid.add(LedgerProblem.warning("open_records_too_many", paths.openDir().toString(),
                            "more than " + MAX_RECORDS + " open records; the rest were not read"));
                    break;
                }
                OpenRecord r;
                try {
                    r = OpenRecord.parse(ref, StateFiles.readAll(p, OpenRecord.MAX_BYTES, false));
                } catch (NoSuchFileException gone) {
                    continue;
                } catch (UnsafeFileException e) {
                    String code = "file_too_large".equals(e.code()) ? "open_record_too_large" : "open_record_unsafe";
                    invalid.add(LedgerProblem.warning(code, p.toString(), e.getMessage()));
                    continue;
                } catch (LedgerException e) {
                    invalid.add(LedgerProblem.warning(e.code(), p.toString(), e.detail()));
                    continue;
                }
                (nowMs - r.startedMs() > ttlMs ? stale : live).add(r);
            }
        }
        return new OpenSet(present, live, stale, invalid);
    }

    /** Live records. */
    public int count() {
        return live.size();
    }

    /** Live records of one session; every live record when the session is unknown. */
    public int countInSession(String session) {
        if (session == null) {
            return count();
        }
        int n = 0;
        for (OpenRecord r : live) {
            if (session.equals(r.session())) {
                n++;
            }
        }
        return n;
    }

    /** The live record with this ref, or {@code null}. */
    public OpenRecord live(String ref) {
        return find(live, ref);
    }

    /** The live or stale record with this ref, or {@code null}. */
    public OpenRecord any(String ref) {
        OpenRecord r = find(live, ref);
        return r != null ? r : find(stale, ref);
    }

    /** The greatest depth among live records, 0 when none is open. */
    public long deepest() {
        long d = 0;
        for (OpenRecord r : live) {
            d = Math.max(d, r.depth());
        }
        return d;
    }

    private static OpenRecord find(List<OpenRecord> records, String ref) {
        for (OpenRecord r : records) {
            if (Objects.equals(r.ref(), ref)) {
                return r;
            }
        }
        return null;
    }
}
