package dev.agentwarden.inventory;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Takes one server's tool manifest: {@code initialize} → {@code notifications/initialized} →
 * {@code tools/list} (every page), re-listed while {@code notifications/tools/list_changed} keeps
 * arriving (bounded), then shutdown. Every wait has a deadline; every failure becomes a
 * {@link ServerSnapshot} with a status and a reason, never an exception.
 */
public final class McpSnapshotter {
    static final String PROTOCOL_VERSION = "2025-06-18";

    /**
     * @param startup    until {@code initialize} is answered (process start included)
     * @param request    per later request
     * @param quiet      a list is settled when no list_changed arrived for this long after it
     * @param settleMax  the most time spent re-listing after the first list
     */
    public record Limits(Duration startup, Duration request, Duration quiet, Duration settleMax, int maxPages,
                         int maxTools) {
        public static Limits defaults() {
            return new Limits(Duration.ofSeconds(20), Duration.ofSeconds(10), Duration.ofMillis(300),
                    Duration.ofSeconds(3), 100, 2000);
        }
    }

    private final Limits limits;
    private final Path workingDir;

    /** @param workingDir where stdio servers start (the project root) unless their config names a cwd */
    public McpSnapshotter(Limits limits, Path workingDir) {
        this.limits = limits;
        this.workingDir = workingDir;
    }

    public ServerSnapshot snapshot(McpServerConfig server, ClientProfile profile, boolean allowProject) {
        return take(server, profile, allowProject, false).snapshot();
    }

    /**
     * A snapshot, and when it is {@link ServerStatus#OK} over stdio, the still-open channel (its
     * caller closes it): a resident keeps it to hear later {@code notifications/tools/list_changed}.
     *
     * @param channel {@code null} unless kept open
     */
    record Taken(ServerSnapshot snapshot, McpChannel channel) {
    }

    Taken take(McpServerConfig server, ClientProfile profile, boolean allowProject, boolean keepOpen) {
        long started = System.nanoTime();
        Session session = new Session(server, profile);
        if (server.projectScoped() && server.transport().equals(McpServerConfig.STDIO) && !allowProject) {
            return new Taken(session.failed(new McpFailure(ServerStatus.SKIPPED_UNTRUSTED, "declared by project file "
                    + server.source() + "; starting it runs repository code (pass --allow-project-servers)"), started), null);
        }
        McpChannel channel = null;
        try {
            channel = open(server);
            session.run(channel);
            ServerSnapshot ok = session.result(started);
            if (keepOpen && channel instanceof StdioChannel) {
                McpChannel kept = channel;
                channel = null;
                return new Taken(ok, kept);
            }
            return new Taken(ok, null);
        } catch (McpFailure f) {
            return new Taken(session.failed(f, started), null);
        } catch (IOException e) {
            return new Taken(session.failed(new McpFailure(ServerStatus.START_FAILED, "cannot reach the server: " + e), started), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Taken(session.failed(new McpFailure(ServerStatus.TIMEOUT, "interrupted"), started), null);
        } finally {
            if (channel != null) {
                channel.close();
            }
        }
    }

    private McpChannel open(McpServerConfig server) throws McpFailure {
        switch (server.transport()) {
            case McpServerConfig.STDIO:
                if (server.command() == null || server.command().isBlank()) {
                    throw new McpFailure(ServerStatus.START_FAILED, "no command configured");
                }
                return StdioChannel.start(server, workingDir);
            case McpServerConfig.HTTP:
                return new HttpChannel(server, limits.request());
            default:
                throw new McpFailure(ServerStatus.UNSUPPORTED, "transport '" + server.transport() + "' is not supported");
        }
    }

    /** The URL as recorded: scheme, host, port and path; never user info or query. */
    static String endpoint(McpServerConfig server) {
        if (server.url() == null) {
            return server.command() == null ? null : Path.of(server.command()).getFileName().toString();
        }
        try {
            URI u = URI.create(server.url());
            return u.getScheme() + "://" + u.getHost() + (u.getPort() < 0 ? "" : ":" + u.getPort())
                    + (u.getRawPath() == null ? "" : u.getRawPath());
        } catch (IllegalArgumentException e) {
            return "(unparseable URL)";
        }
    }

    /** Answers a request the server sent: roots (none), ping; anything else is method-not-found. Notifications need no answer. */
    static void answerRequest(McpChannel channel, Map<String, Object> m) throws IOException {
        Object method = m.get("method");
        if (!m.containsKey("id") || m.get("id") == null) {
            return;
        }
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("jsonrpc", "2.0");
        reply.put("id", m.get("id"));
        if ("roots/list".equals(method)) {
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("roots", new ArrayList<>());
            reply.put("result", result);
        } else if ("ping".equals(method)) {
            reply.put("result", new LinkedHashMap<>());
        } else {
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("code", -32601L);
            error.put("message", "the inventory client does not serve " + method);
            reply.put("error", error);
        }
        channel.send(reply);
    }

    /** One conversation with one server. */
    private final class Session {
        private final McpServerConfig server;
        private final ClientProfile profile;
        private long nextId = 1;
        private int listChanged;
        private boolean dirty;
        private boolean settled;
        private String protocolVersion;
        private Map<String, Object> serverInfo;
        private List<Map<String, Object>> tools = List.of();

        Session(McpServerConfig server, ClientProfile profile) {
            this.server = server;
            this.profile = profile;
        }

        void run(McpChannel channel) throws McpFailure, IOException, InterruptedException {
            Map<String, Object> params = new LinkedHashMap<>();
            params.put("protocolVersion", PROTOCOL_VERSION);
            params.put("capabilities", profile.capabilities());
            Map<String, Object> info = new LinkedHashMap<>();
            info.put("name", profile.clientName());
            info.put("version", profile.clientVersion());
            params.put("clientInfo", info);
            Map<String, Object> init = call(channel, "initialize", params, limits.startup(), "initialize");
            if (!(init.get("protocolVersion") instanceof String version)) {
                throw new McpFailure(ServerStatus.GARBAGE, "initialize result has no protocolVersion");
            }
            protocolVersion = version;
            if (init.get("serverInfo") instanceof Map<?, ?> si) {
                serverInfo = copyInfo(si);
            }
            if (channel instanceof HttpChannel http) {
                http.protocolVersion(version);
            }
            Map<String, Object> initialized = new LinkedHashMap<>();
            initialized.put("jsonrpc", "2.0");
            initialized.put("method", "notifications/initialized");
            channel.send(initialized);

            long settleEnd = System.nanoTime() + limits.settleMax().toNanos();
            tools = listAll(channel);
            while (true) {
                long quietEnd = Math.min(System.nanoTime() + limits.quiet().toNanos(), settleEnd);
                while (!dirty && System.nanoTime() < quietEnd) {
                    Map<String, Object> m = channel.receive(quietEnd);
                    if (m != null) {
                        handleUnsolicited(channel, m);
                    }
                }
                if (!dirty) {
                    settled = true;
                    break;
                }
                if (System.nanoTime() >= settleEnd) {
                    break;
                }
                tools = listAll(channel);
            }
            checkNames();
        }

        private void checkNames() throws McpFailure {
            Set<String> seen = new HashSet<>();
            Set<String> dup = new LinkedHashSet<>();
            for (Map<String, Object> t : tools) {
                String n = (String) t.get("name");
                if (!seen.add(n)) {
                    dup.add(n);
                }
            }
            if (!dup.isEmpty()) {
                throw new McpFailure(ServerStatus.DUPLICATE_TOOLS, "tool names listed more than once: " + dup);
            }
        }

        @SuppressWarnings("unchecked")
        private List<Map<String, Object>> listAll(McpChannel channel)
                throws McpFailure, IOException, InterruptedException {
            dirty = false;
            List<Map<String, Object>> all = new ArrayList<>();
            Set<String> cursors = new HashSet<>();
            String cursor = null;
            for (int page = 1; ; page++) {
                if (page > limits.maxPages()) {
                    throw new McpFailure(ServerStatus.GARBAGE, "more than " + limits.maxPages() + " pages of tools");
                }
                Map<String, Object> params = new LinkedHashMap<>();
                if (cursor != null) {
                    params.put("cursor", cursor);
                }
                Map<String, Object> result = call(channel, "tools/list", params, limits.request(), "tools/list page " + page);
                if (!(result.get("tools") instanceof List<?> list)) {
                    throw new McpFailure(ServerStatus.GARBAGE, "tools/list result has no tools array");
                }
                for (Object o : list) {
                    if (!(o instanceof Map<?, ?> tool) || !(tool.get("name") instanceof String name) || name.isEmpty()) {
                        throw new McpFailure(ServerStatus.GARBAGE, "a tool without a name: " + MessageQueue.excerpt(String.valueOf(o)));
                    }
                    all.add((Map<String, Object>) tool);
                }
                if (all.size() > limits.maxTools()) {
                    throw new McpFailure(ServerStatus.GARBAGE, "more than " + limits.maxTools() + " tools");
                }
                Object next = result.get("nextCursor");
                if (next == null) {
                    return all;
                }
                if (!(next instanceof String c) || !cursors.add(c)) {
                    throw new McpFailure(ServerStatus.GARBAGE, "nextCursor repeats or is not a string: " + next);
                }
                cursor = c;
            }
        }

        /** Sends a request and waits for its response, serving whatever the server sends meanwhile. */
        @SuppressWarnings("unchecked")
        private Map<String, Object> call(McpChannel channel, String method, Map<String, Object> params,
                                         Duration timeout, String what) throws McpFailure, IOException, InterruptedException {
            long id = nextId++;
            Map<String, Object> request = new LinkedHashMap<>();
            request.put("jsonrpc", "2.0");
            request.put("id", id);
            request.put("method", method);
            request.put("params", params);
            channel.send(request);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                Map<String, Object> m = channel.receive(deadline);
                if (m == null) {
                    throw new McpFailure(ServerStatus.TIMEOUT, "no answer to " + what + " within " + timeout.toMillis() + " ms");
                }
                if (m.containsKey("method")) {
                    handleUnsolicited(channel, m);
                    continue;
                }
                if (!(m.get("id") instanceof Number n) || n.longValue() != id) {
                    continue;
                }
                if (m.get("error") instanceof Map<?, ?> error) {
                    throw new McpFailure(ServerStatus.ERROR, what + " failed: " + error.get("code") + " " + error.get("message"));
                }
                if (!(m.get("result") instanceof Map<?, ?> result)) {
                    throw new McpFailure(ServerStatus.GARBAGE, what + " response has no result object");
                }
                return (Map<String, Object>) result;
            }
        }

        /** Counts list_changed; answers server requests (roots: none; everything else: method not found). */
        private void handleUnsolicited(McpChannel channel, Map<String, Object> m) throws IOException {
            Object method = m.get("method");
            if ("notifications/tools/list_changed".equals(method)) {
                listChanged++;
                dirty = true;
                return;
            }
            answerRequest(channel, m);
        }

        private Map<String, Object> copyInfo(Map<?, ?> si) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (String k : new String[] {"name", "title", "version"}) {
                if (si.get(k) instanceof String s) {
                    out.put(k, s);
                }
            }
            return out;
        }

        ServerSnapshot result(long started) {
            return build(ServerStatus.OK, null, started);
        }

        ServerSnapshot failed(McpFailure f, long started) {
            return build(f.status(), f.getMessage(), started);
        }

        private ServerSnapshot build(ServerStatus status, String reason, long started) {
            return new ServerSnapshot(server.key(), server.host(), server.name(), server.source(),
                    server.projectScoped(), server.transport(), endpoint(server), status, reason,
                    profile.capabilities(), protocolVersion, serverInfo, tools, listChanged,
                    status == ServerStatus.OK && settled, (System.nanoTime() - started) / 1_000_000);
        }
    }
}
