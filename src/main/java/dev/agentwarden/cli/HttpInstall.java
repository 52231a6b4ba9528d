package dev.agentwarden.cli;

import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.event.EventName;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.claude.ClaudeHttpHooks;
import dev.agentwarden.io.CacheDir;
import dev.agentwarden.io.HookProjects;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.server.HookPorts;
import dev.agentwarden.server.WardenServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code warden install --transport http}: the resident's hook port (created once, with its token,
 * in the private resident directory), the project's entry in the registry of projects bound to
 * HTTP hooks ({@link HookProjects}), and the bindings with the events that may go over HTTP turned
 * into HTTP hooks bound to that project ({@link ClaudeHttpHooks#plan}). {@link #prepare} writes
 * nothing; {@link #record} writes the port and the project once the host's settings are written,
 * so a refused install leaves no file behind.
 *
 * @param plan      the transport of every installed event, for the install report and {@code doctor}
 * @param realRoot  the project the hooks are bound to, as a real path
 */
record HttpInstall(List<Installer.Binding> bindings, List<ClaudeHttpHooks.Transport> plan,
                   WardenServer.HookPort port, Path portFile, Path realRoot) {

    /**
     * The HTTP install for {@code host} in the project at {@code root}, or {@code null} after saying
     * on {@code err} why there is none. Writes nothing.
     */
    static HttpInstall prepare(String transport, String host, boolean userScope, Path root, Manifest manifest,
                               List<Installer.Binding> bindings, PrintWriter err) {
        if (!"http".equals(transport)) {
            err.println("warden install: --transport must be command or http, not '" + transport + "'");
            return null;
        }
        if (!ClaudeHttpHooks.servesHost(host)) {
            err.println("warden install: --transport http is for Claude Code (type: \"http\" hooks); " + host
                    + " hooks stay commands");
            return null;
        }
        if (userScope) {
            err.println("warden install: --transport http binds each hook to one project, so it installs at project"
                    + " scope only (--scope project); user-scope hooks stay commands");
            return null;
        }
        Path realRoot;
        try {
            realRoot = root.toRealPath();
        } catch (IOException e) {
            err.println("warden install: cannot resolve the project " + root + ": " + e.getMessage());
            return null;
        }
        Path dir = CacheDir.root(System.getenv()).resolve("resident");
        WardenServer.HookPort port;
        try {
            port = HookPorts.choose(dir);
        } catch (IOException e) {
            err.println("warden install: no HTTP hook port: " + e.getMessage());
            return null;
        }
        return planned(host, manifest, bindings, port, dir.resolve(HookPorts.FILE), realRoot);
    }

    /**
     * Records the hook port and binds the project to it: what the written HTTP hooks need, written
     * only once they are.
     */
    void record() throws IOException {
        Path dir = portFile.getParent();
        HookPorts.write(dir, port);
        HookProjects.add(dir, realRoot);
    }

    /**
     * The HTTP install of {@code bindings} over an existing hook {@code port}: what {@code prepare}
     * writes, and what {@code doctor} compares an HTTP install with (without creating a port).
     */
    static HttpInstall planned(String host, Manifest manifest, List<Installer.Binding> bindings,
                               WardenServer.HookPort port, Path portFile, Path realRoot) {
        String project = HookProjects.id(realRoot);
        List<String> events = new ArrayList<>();
        for (Installer.Binding b : bindings) {
            events.add(b.nativeEvent());
        }
        List<ClaudeHttpHooks.Transport> plan = ClaudeHttpHooks.plan(events, failClosedEvents(manifest, host));
        List<Installer.Binding> out = new ArrayList<>();
        for (int i = 0; i < bindings.size(); i++) {
            Installer.Binding b = bindings.get(i);
            out.add("http".equals(plan.get(i).kind()) ? new Installer.Binding(b.nativeEvent(), b.matcher(), port.port(), project)
                    : b);
        }
        if (!events.contains("SessionStart")) {
            // The command hook that starts the resident before the first HTTP hook needs it.
            out.add(0, new Installer.Binding("SessionStart", null));
            plan = new ArrayList<>(plan);
            plan.add(0, new ClaudeHttpHooks.Transport("SessionStart", "command", "starts the resident that serves the HTTP hooks"));
        }
        return new HttpInstall(List.copyOf(out), List.copyOf(plan), port, portFile, realRoot);
    }

    /** The native events whose chain (default role) holds a fail_closed concern. */
    static Set<String> failClosedEvents(Manifest manifest, String host) {
        Set<String> out = new TreeSet<>();
        for (Map.Entry<String, EventName> alias : manifest.aliases().getOrDefault(host, Map.of()).entrySet()) {
            for (ConcernSpec c : manifest.chain(host, alias.getValue(), Manifest.DEFAULT_ROLE)) {
                if (c.failClosed()) {
                    out.add(alias.getKey());
                }
            }
        }
        return out;
    }

    void report(PrintWriter out) {
        out.println("transports:");
        for (ClaudeHttpHooks.Transport t : plan) {
            out.println("  " + t.nativeEvent() + ": " + t.kind() + " (" + t.reason() + ")");
        }
        out.println("HTTP hooks go to 127.0.0.1:" + port.port() + ", bound to " + realRoot
                + " (the resident judges only this project's events on them), and send $" + ClaudeHttpHooks.TOKEN_VARIABLE
                + " from Claude Code's environment; set it where you start claude:");
        out.println("  export " + ClaudeHttpHooks.TOKEN_VARIABLE + "=\"$(cut -d' ' -f2 " + portFile + ")\"");
        out.println("(the token is only in " + portFile + ", mode 0600; an HTTP hook whose resident is down fails open)");
    }
}
