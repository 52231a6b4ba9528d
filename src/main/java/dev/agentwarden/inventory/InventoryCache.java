package dev.agentwarden.inventory;

import dev.agentwarden.canonical.Jcs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Per-server tool manifests for the per-turn snapshot ({@link TurnInventory}), kept between turns
 * only in a long-lived process ({@link #keepInThisProcess}, called by the resident).
 *
 * <p>A kept manifest is reused until one of: the server's configuration entry changes (its
 * fields, hashed in memory; the configuration files are re-read when their modification time,
 * size or file key changes); the server sends {@code notifications/tools/list_changed} on the
 * stdio session kept open after the snapshot, or that session ends; its age passes the TTL. Then
 * it is re-taken on a background thread, one refresh per server at a time.
 *
 * <p>A turn waits at most its bound ({@code wait_ms}) for all refreshes together. A server not
 * ready by then is recorded {@code stale} (the TTL ran out and nothing says the manifest changed:
 * the last one is used and marked so) or {@code missing} (no manifest, or one known to be
 * outdated); the refresh goes on and serves a later turn.
 *
 * <p>Without {@link #keepInThisProcess} (a JVM per event) nothing is kept: every turn takes every
 * server cold within the same bound, and a refresh still running at the end of the turn is
 * interrupted (its server shut down).
 */
public final class InventoryCache {
    /** How a turn's manifest of one server was obtained. */
    public enum State {
        /** Taken for this turn. */
        FRESH,
        /** Kept from an earlier turn: within the TTL, no change seen. */
        CACHED,
        /** The TTL ran out and the refresh did not finish within the bound; the last manifest is used. */
        STALE,
        /** No manifest within the bound, or the kept one is known to be outdated. */
        MISSING
    }

    /**
     * One server's manifest for one turn.
     *
     * @param ageMs how old the manifest is (by the injected clock), 0 when fresh
     * @param note  why it is stale or missing, else {@code null}
     */
    public record Served(ServerSnapshot snapshot, State state, long ageMs, String note) {
    }

    /** Most servers kept; past it the cache starts over. */
    static final int MAX_ENTRIES = 64;
    private static final InventoryCache SHARED = new InventoryCache();
    private static volatile boolean keep;

    private final Boolean keepFixed;
    private final Map<String, Entry> entries = new LinkedHashMap<>();
    private List<FileStamp> configStamps;
    private List<McpServerConfig> configServers;
    private List<String> configProblems;

    private InventoryCache() {
        this.keepFixed = null;
    }

    /** A cache that keeps manifests between turns or not, whatever the process is. */
    InventoryCache(boolean keep) {
        this.keepFixed = keep;
    }

    /** Whether this cache keeps manifests between turns. */
    public boolean keeps() {
        return keepFixed != null ? keepFixed : keep;
    }

    /** The process's cache. */
    static InventoryCache shared() {
        return SHARED;
    }

    /** Keeps manifests (and open stdio sessions) between turns in this process: the resident calls it once. */
    public static void keepInThisProcess() {
        keep = true;
    }

    /** Closes every kept session (the resident calls it when it stops). */
    public static void closeAll() {
        SHARED.clear();
    }

    /** Closes the kept sessions but keeps the manifests (as if each server had gone quiet). */
    synchronized void dropSessions() {
        for (Entry e : entries.values()) {
            e.closeSession();
        }
    }

    synchronized void clear() {
        for (Entry e : entries.values()) {
            e.close();
        }
        entries.clear();
        configStamps = null;
    }

    /**
     * The configured servers, re-read only when a configuration file's modification time, size or
     * file key changed (or always, when nothing is kept).
     *
     * @param problems receives each unreadable file's problem
     */
    public synchronized List<McpServerConfig> servers(Path project, Path home, Map<String, String> env, String host,
                                                      List<String> problems) {
        List<FileStamp> stamps = new ArrayList<>();
        for (Path f : HostMcpConfigs.files(project, home, env, host)) {
            stamps.add(FileStamp.of(f));
        }
        if (!keeps() || configStamps == null || !configStamps.equals(stamps)) {
            HostMcpConfigs read = HostMcpConfigs.read(project, home, env, host);
            configServers = List.copyOf(read.servers());
            configProblems = List.copyOf(read.problems());
            configStamps = stamps;
        }
        problems.addAll(configProblems);
        return configServers;
    }

    /**
     * Every server's manifest for one turn, in {@code servers} order, within {@code waitMs} in all.
     *
     * @param ttlMs how long a kept manifest is used without re-taking it
     */
    public List<Served> serve(List<McpServerConfig> servers, ClientProfile profile, boolean allowProject,
                              McpSnapshotter snapshotter, long waitMs, long ttlMs, Clock clock) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        long now = clock.millis();
        boolean keep = keeps();
        List<Entry> used = new ArrayList<>(servers.size());
        Served[] out = new Served[servers.size()];
        synchronized (this) {
            if (entries.size() > MAX_ENTRIES) {
                clear();
            }
            for (int i = 0; i < servers.size(); i++) {
                McpServerConfig server = servers.get(i);
                String fingerprint = fingerprint(server, profile, allowProject);
                Entry e = keep ? entries.get(server.key()) : null;
                if (e == null || !e.fingerprint.equals(fingerprint)) {
                    if (e != null) {
                        e.close();
                    }
                    e = new Entry(fingerprint);
                    if (keep) {
                        entries.put(server.key(), e);
                    }
                }
                used.add(e);
                Served cached = e.cached(now, ttlMs);
                if (cached != null) {
                    out[i] = cached;
                } else {
                    e.refresh(server, profile, allowProject, snapshotter, clock, keep);
                }
            }
        }
        for (int i = 0; i < servers.size(); i++) {
            if (out[i] == null) {
                out[i] = used.get(i).await(servers.get(i), profile, deadline, waitMs, clock.millis());
            }
        }
        if (!keep) {
            for (Entry e : used) {
                e.close();
            }
        }
        List<Served> list = new ArrayList<>(out.length);
        for (Served s : out) {
            list.add(s);
        }
        return list;
    }

    /** The server's configuration and what the snapshot declares, hashed; kept in memory only (it covers env values). */
    static String fingerprint(McpServerConfig server, ClientProfile profile, boolean allowProject) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("key", server.key());
        m.put("source", server.source());
        m.put("transport", server.transport());
        m.put("command", server.command());
        m.put("args", new ArrayList<Object>(server.args()));
        m.put("env", new LinkedHashMap<String, Object>(server.env()));
        m.put("cwd", server.cwd());
        m.put("url", server.url());
        m.put("headers", new LinkedHashMap<String, Object>(server.headers()));
        m.put("capabilities", profile.capabilities());
        m.put("allow_project", allowProject);
        return Jcs.sha256Hex(m);
    }

    /** A configuration file's identity for change detection: absent, or modification time, size and file key. */
    record FileStamp(Path file, boolean exists, long modifiedMillis, long size, String fileKey) {
        static FileStamp of(Path file) {
            try {
                BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                return new FileStamp(file, true, a.lastModifiedTime().toMillis(), a.size(), String.valueOf(a.fileKey()));
            } catch (IOException e) {
                return new FileStamp(file, false, 0, 0, null);
            }
        }
    }

    /** One server's kept manifest, its refresh in flight and its open session. */
    private static final class Entry {
        final String fingerprint;
        private ServerSnapshot snapshot;
        private long takenAtMillis;
        private volatile String changed;
        private Thread refresher;
        private volatile McpSnapshotter.Taken result;
        private McpChannel live;
        private Thread watcher;
        private boolean closed;

        Entry(String fingerprint) {
            this.fingerprint = fingerprint;
        }

        /** The kept manifest when it may be used as is, else {@code null}. */
        synchronized Served cached(long now, long ttlMs) {
            adopt();
            if (snapshot == null || !snapshot.ok() || changed != null || now - takenAtMillis >= ttlMs) {
                return null;
            }
            return new Served(snapshot, State.CACHED, now - takenAtMillis, null);
        }

        /** Starts a refresh unless one is in flight. */
        synchronized void refresh(McpServerConfig server, ClientProfile profile, boolean allowProject,
                                  McpSnapshotter snapshotter, Clock clock, boolean keepOpen) {
            if (refresher != null || closed) {
                return;
            }
            Thread t = new Thread(() -> {
                McpSnapshotter.Taken taken = snapshotter.take(server, profile, allowProject, keepOpen);
                synchronized (this) {
                    result = taken;
                    takenAtMillisPending = clock.millis();
                    refresher = null;
                    notifyAll();
                }
            }, "warden-inventory-" + server.key());
            t.setDaemon(true);
            refresher = t;
            t.start();
        }

        private long takenAtMillisPending;

        /** Moves a finished refresh's result in, replacing the kept manifest and session. */
        private void adopt() {
            McpSnapshotter.Taken taken = result;
            if (taken == null) {
                return;
            }
            result = null;
            if (closed) {
                if (taken.channel() != null) {
                    closeLater(taken.channel());
                }
                return;
            }
            closeSession();
            snapshot = taken.snapshot();
            takenAtMillis = takenAtMillisPending;
            changed = null;
            if (taken.channel() != null) {
                watch(taken.channel());
            }
        }

        /** Waits for the refresh until {@code deadline}; the turn's manifest either way. */
        synchronized Served await(McpServerConfig server, ClientProfile profile, long deadline, long waitMs, long now) {
            while (refresher != null && result == null) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            boolean finished = result != null;
            ServerSnapshot before = snapshot;
            String why = changed;
            adopt();
            if (finished) {
                return new Served(snapshot, State.FRESH, 0, null);
            }
            if (before != null && before.ok() && why == null) {
                return new Served(before, State.STALE, now - takenAtMillis, "TTL ran out and the refresh did not finish within "
                        + waitMs + " ms; the manifest taken " + (now - takenAtMillis) + " ms ago is used");
            }
            String note = (why != null ? why + "; " : "") + "no manifest within " + waitMs
                    + " ms (wait_ms); it is still being taken";
            return new Served(missing(server, profile, note), State.MISSING, 0, note);
        }

        private static ServerSnapshot missing(McpServerConfig server, ClientProfile profile, String note) {
            return new ServerSnapshot(server.key(), server.host(), server.name(), server.source(), server.projectScoped(),
                    server.transport(), McpSnapshotter.endpoint(server), ServerStatus.TIMEOUT, note,
                    profile.capabilities(), null, null, List.of(), 0, false, 0);
        }

        /** Listens on the kept session: a list_changed, or its end, marks the manifest changed. */
        private void watch(McpChannel channel) {
            live = channel;
            Thread t = new Thread(() -> {
                try {
                    while (true) {
                        Map<String, Object> m = channel.receive(System.nanoTime() + TimeUnit.HOURS.toNanos(1));
                        if (m == null) {
                            continue;
                        }
                        if ("notifications/tools/list_changed".equals(m.get("method"))) {
                            markChanged(channel, "the server sent notifications/tools/list_changed");
                        } else if (m.get("method") != null) {
                            McpSnapshotter.answerRequest(channel, m);
                        }
                    }
                } catch (McpFailure | IOException e) {
                    markChanged(channel, "the kept session ended (" + e.getMessage() + ")");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "warden-inventory-watch");
            t.setDaemon(true);
            watcher = t;
            t.start();
        }

        /** Records a change heard on {@code channel}, unless it is no longer the kept session (closed by the cache). */
        private synchronized void markChanged(McpChannel channel, String why) {
            if (live == channel && changed == null) {
                changed = why;
            }
        }

        private synchronized void closeSession() {
            if (live != null) {
                McpChannel c = live;
                Thread w = watcher;
                live = null;
                watcher = null;
                if (w != null) {
                    w.interrupt();
                }
                closeLater(c);
            }
        }

        /** Closes the kept session and stops a refresh in flight (its server is shut down). */
        synchronized void close() {
            closed = true;
            closeSession();
            if (refresher != null) {
                refresher.interrupt();
            }
        }

        /** Closes a session off the turn's thread: a stdio close waits for the process to exit. */
        private static void closeLater(McpChannel channel) {
            Thread t = new Thread(channel::close, "warden-inventory-close");
            t.setDaemon(true);
            t.start();
        }
    }
}
