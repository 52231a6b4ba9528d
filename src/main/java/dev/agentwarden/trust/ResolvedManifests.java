package dev.agentwarden.trust;

import dev.agentwarden.io.CacheDir;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.manifest.ManifestException;
import dev.agentwarden.manifest.ManifestLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The manifest in force per project, kept by a long-lived server (the resident, {@code warden
 * serve}) so that a dispatch does not repeat {@link ProjectManifest#resolve} and the compiled
 * cache's privacy walk in {@link ManifestLoader#load} while nothing they looked at has changed.
 *
 * <p>Kept: only a resolution that said nothing (no note, no fallback), that is an explicit
 * {@code --manifest}, the project's manifest as trusted, or the default where the project has
 * neither a manifest nor a trust record. Anything that warns is resolved in full every time.
 *
 * <p>Revalidated on every dispatch that uses a kept resolution, before it is used: the project
 * root's real path (the trust record's key), and one stat each of the trust directory and the
 * trust record in it (when there is one), the project's {@code .warden/manifest.yaml} (or the
 * explicit file), followed as it is read, and the compiled cache file and its directory. A stat is
 * compared as device, inode and change time ({@link Stamp}), or that the path is absent. Any edit,
 * replacement, rename, {@code chmod} or {@code chown} of one of them, and an entry made in or
 * removed from one of the directories, changes it and sends the dispatch down the full path,
 * which rereads, rehashes and rechecks everything as a one-shot process does. A kept resolution is also dropped
 * {@link #RECHECK_NANOS} after it was made, so a change elsewhere on the checked paths (an ancestor
 * directory made writable by others) is noticed within that time.
 *
 * <p>Timestamps have the file system's tick (milliseconds): a same-size rewrite in the tick the
 * stat was taken would keep its change time. So a resolution is kept only when every file and
 * directory stamped last changed at least {@link #SETTLED_MILLIS} before the stat (the wall clock,
 * the one file times come from); until then each dispatch resolves in full.
 */
public final class ResolvedManifests {
    /** Longest a kept resolution is used before a full one replaces it. */
    static final long RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** How long before its stat a file must have last changed for its resolution to be kept. */
    static final long SETTLED_MILLIS = 1_000;
    /** Most resolutions kept (the resident serves many projects); past it, all are dropped. */
    static final int MAX_KEPT = 64;
    /** What a stamp holds: the change time moves with every write, truncation, chmod, chown, link and rename of the inode. */
    private static final String ATTRIBUTES = "unix:dev,ino,ctime";

    /**
     * How the manifest in force was found, and the manifest, or why it could not be loaded.
     *
     * @param manifest {@code null} when {@code unusable} is not
     * @param unusable what {@link ManifestLoader#load} threw
     */
    public record InForce(ProjectManifest.Resolution resolution, Manifest manifest, ManifestException unusable) {
    }

    private final ConcurrentHashMap<String, Kept> kept = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, RealRoot> realRoots = new ConcurrentHashMap<>();
    private volatile Dirs lastDirs;
    /** The wall clock file change times are compared with: the system's, where they come from, not a server's injected one. */
    private final Clock wall;
    private final LongSupplier ticker;

    public ResolvedManifests() {
        this(Clock.systemUTC());
    }

    ResolvedManifests(Clock wall) {
        this(wall, new SystemTicker());
    }

    /** @param ticker the monotonic time a kept resolution's age is measured in, nanoseconds */
    ResolvedManifests(Clock wall, LongSupplier ticker) {
        this.wall = wall;
        this.ticker = ticker;
    }

    /** {@link System#nanoTime()}. */
    private static final class SystemTicker implements LongSupplier {
        @Override
        public long getAsLong() {
            return System.nanoTime();
        }
    }

    /**
     * What {@link ProjectManifest#resolve} and then {@link ManifestLoader#load} give, adding their
     * notes to {@code notes}; from a kept resolution when nothing it depends on has changed.
     *
     * @throws ManifestException what {@link ProjectManifest#resolve} throws
     */
    public InForce inForce(String explicitFile, String root, Map<String, String> env, List<String> notes)
            throws ManifestException {
        Dirs dirs = dirs(env);
        Path trustDir = dirs.trust;
        String key = explicitFile + "\0" + root + "\0" + dirs.key;
        String realRoot = explicitFile == null ? realRoot(root) : null;
        Kept k = kept.get(key);
        if (k != null && ticker.getAsLong() - k.madeAt < RECHECK_NANOS && Objects.equals(k.realRoot, realRoot)
                && k.unchanged()) {
            return k.inForce;
        }
        // stamped before they are read: a change made while they are read shows at the next dispatch
        List<Stamped> stamps = new ArrayList<>(5);
        long madeAt = ticker.getAsLong();
        if (explicitFile != null) {
            stamps.add(Stamped.of(Path.of(explicitFile), true));
        } else {
            // no record can be read through a trust directory that is not there; one that is there
            // changes when an entry is made in it, so an absent record needs no stamp of its own
            Stamped dir = Stamped.of(trustDir, true);
            stamps.add(dir);
            if (dir.stamp != Stamp.ABSENT) {
                Stamped record = Stamped.of(new TrustStore(trustDir).recordFile(realRoot), false);
                if (record.stamp != Stamp.ABSENT) {
                    stamps.add(record);
                }
            }
            stamps.add(Stamped.of(Path.of(root, ".warden", "manifest.yaml"), true));
        }
        ProjectManifest.Resolution located = ProjectManifest.resolve(explicitFile, root, env);
        notes.addAll(located.notes());
        Path cacheFile = ManifestLoader.cacheFile(located.source(), env);
        stamps.add(Stamped.of(cacheFile.getParent(), true));
        stamps.add(Stamped.of(cacheFile, false));
        List<String> loadNotes = new ArrayList<>(1);
        Manifest manifest;
        try {
            manifest = ManifestLoader.load(located.source(), env, loadNotes);
        } catch (ManifestException e) {
            notes.addAll(loadNotes);
            kept.remove(key);
            return new InForce(located, null, e);
        }
        notes.addAll(loadNotes);
        InForce inForce = new InForce(located, manifest, null);
        if (located.notes().isEmpty() && loadNotes.isEmpty() && located.fallback() == null
                && settled(stamps) && (explicitFile != null || realRoot.equals(TrustStore.realRoot(root)))) {
            if (kept.size() >= MAX_KEPT) {
                kept.clear();
            }
            kept.put(key, new Kept(realRoot, List.copyOf(stamps), inForce, madeAt));
        } else {
            kept.remove(key);
        }
        return inForce;
    }

    /**
     * {@link TrustStore#realRoot} of {@code root}, from the last one worked out for it while that
     * was at most {@link #RECHECK_NANOS} ago and {@code root} still names, without following a
     * link, the same directory (device and inode): a root replaced by a link or by another
     * directory is worked out again at once; a change of the path's ancestors that leaves it naming
     * the same directory, at the next recheck.
     */
    private String realRoot(String root) {
        RealRoot r = realRoots.get(root);
        long now = ticker.getAsLong();
        if (r != null && now - r.madeAt < RECHECK_NANOS && Objects.equals(r.dirKey, dirKey(r.path))) {
            return r.real;
        }
        Path path = Path.of(root);
        Object key = dirKey(path);
        String real = TrustStore.realRoot(root);
        if (key != null) {
            if (realRoots.size() >= MAX_KEPT) {
                realRoots.clear();
            }
            realRoots.put(root, new RealRoot(path, real, key, now));
        }
        return real;
    }

    /** The device and inode of the directory {@code path} names without following a link, or {@code null}. */
    private static Object dirKey(Path path) {
        try {
            BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return a.isDirectory() ? a.fileKey() : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** A project root's real path, worked out at {@code madeAt} while {@code path} named the directory {@code dirKey}. */
    private record RealRoot(Path path, String real, Object dirKey, long madeAt) {
    }

    /** The trust and cache directories of {@code env}: the last ones again when it is the same map (a server's own). */
    private Dirs dirs(Map<String, String> env) {
        Dirs d = lastDirs;
        if (d == null || d.env != env) {
            Path trust = TrustStore.dir(env);
            d = new Dirs(env, trust, trust + "\0" + CacheDir.root(env));
            lastDirs = d;
        }
        return d;
    }

    /** The directories derived from one environment map, and their part of a key. */
    private record Dirs(Map<String, String> env, Path trust, String key) {
    }

    /** How many resolutions are kept. */
    int keptCount() {
        return kept.size();
    }

    /** Whether every stamp was taken and what it names had been unchanged for {@link #SETTLED_MILLIS}. */
    private boolean settled(List<Stamped> stamps) {
        long before = wall.millis() - SETTLED_MILLIS;
        for (Stamped s : stamps) {
            if (s.stamp == null || s.stamp != Stamp.ABSENT && s.stamp.changedNanos() > TimeUnit.MILLISECONDS.toNanos(before)) {
                return false;
            }
        }
        return true;
    }

    /** A kept resolution and the stamps it was made under. */
    private record Kept(String realRoot, List<Stamped> stamps, InForce inForce, long madeAt) {
        boolean unchanged() {
            for (Stamped s : stamps) {
                if (!s.stamp.equals(Stamp.of(s.path, s.follow, s.stamp != Stamp.ABSENT))) {
                    return false;
                }
            }
            return true;
        }
    }

    /** A path, whether it is followed as it is read, and its stamp then ({@code null}: none could be taken). */
    private record Stamped(Path path, boolean follow, Stamp stamp) {
        static Stamped of(Path path, boolean follow) {
            return new Stamped(path, follow, Stamp.of(path, follow, false));
        }
    }

    /**
     * Which inode a path names and when that inode last changed (its {@code ctime}: any write,
     * truncation, {@code chmod}, {@code chown}, {@code utimes}, link or unlink sets it to now, and
     * no call sets it otherwise), or {@link #ABSENT}. A new file given a freed inode number has a
     * new change time.
     */
    record Stamp(long dev, long ino, long changedNanos) {
        static final Stamp ABSENT = new Stamp(-1, -1, -1);

        /**
         * The stamp of {@code path} now, {@link #ABSENT} when nothing is there (or, without
         * {@code follow}, only a link that leads nowhere), {@code null} when it cannot be had.
         *
         * @param expected whether the path was there before (then it is read at once)
         */
        static Stamp of(Path path, boolean follow, boolean expected) {
            // a missing path costs an exception below; this asks without one (following links:
            // an unresolvable link counts as absent, which the directory holding it vouches for)
            if (!expected && !path.toFile().exists()) {
                return ABSENT;
            }
            try {
                Map<String, Object> a = follow ? Files.readAttributes(path, ATTRIBUTES)
                        : Files.readAttributes(path, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
                return new Stamp((Long) a.get("dev"), (Long) a.get("ino"),
                        ((FileTime) a.get("ctime")).to(TimeUnit.NANOSECONDS));
            } catch (NoSuchFileException absent) {
                return ABSENT;
            } catch (IOException | RuntimeException unknown) {
                return null;
            }
        }
    }
}
