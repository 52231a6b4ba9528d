package dev.agentwarden.cli;

import dev.agentwarden.host.claude.ClaudeHttpHooks;
import dev.agentwarden.host.Installer;
import dev.agentwarden.io.CacheDir;
import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.event.EventName;
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
 * in the private resident directory), and the bindings with the events that may go over HTTP
 * turned into HTTP hooks ({@link ClaudeHttpHooks#plan}).
 *
 * @param plan the transport of every installed event, for the install report and {@code doctor}
 */
record HttpInstall(List<Installer.Binding> bindings, List<ClaudeHttpHooks.Transport> plan,
                   WardenServer.HookPort port, Path portFile) {

    /** The HTTP install for {@code host}, or {@code null} after saying on {@code err} why there is none. */
    static HttpInstall prepare(String transport, String host, Manifest manifest, List<Installer.Binding> bindings,
                               PrintWriter err) {
        if (!"http".equals(transport)) {
            err.println("warden install: --transport must be command or http, not '" + transport + "'");
            return null;
        }
        if (!ClaudeHttpHooks.servesHost(host)) {
            err.println("warden install: --transport http is for Claude Code (type: \"http\" hooks); " + host
                    + " hooks stay commands");
            return null;
        }
        Path dir = CacheDir.root(System.getenv()).resolve("resident");
        WardenServer.HookPort port;
        try {
            port = HookPorts.ensure(dir);
        } catch (IOException e) {
            err.println("warden install: no HTTP hook port: " + e.getMessage());
            return null;
        }
        return planned(host, manifest, bindings, port, dir.resolve(HookPorts.FILE));
    }

    /**
     * The HTTP install of {@code bindings} over an existing hook {@code port}: what {@code prepare}
     * writes, and what {@code doctor} compares an HTTP install with (without creating a port).
     */
    static HttpInstall planned(String host, Manifest manifest, List<Installer.Binding> bindings,
                               WardenServer.HookPort port, Path portFile) {
        List<String> events = new ArrayList<>();
        for (Installer.Binding b : bindings) {
            events.add(b.nativeEvent());
        }
        List<ClaudeHttpHooks.Transport> plan = ClaudeHttpHooks.plan(events, failClosedEvents(manifest, host));
        List<Installer.Binding> out = new ArrayList<>();
        for (int i = 0; i < bindings.size(); i++) {
            Installer.Binding b = bindings.get(i);
            out.add("http".equals(plan.get(i).kind()) ? new Installer.Binding(b.nativeEvent(), b.matcher(), port.port()) : b);
        }
        if (!events.contains("SessionStart")) {
            // The command hook that starts the resident before the first HTTP hook needs it.
            out.add(0, new Installer.Binding("SessionStart", null));
            plan = new ArrayList<>(plan);
            plan.add(0, new ClaudeHttpHooks.Transport("SessionStart", "command", "starts the resident that serves the HTTP hooks"));
        }
        return new HttpInstall(List.copyOf(out), List.copyOf(plan), port, portFile);
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
        out.println("HTTP hooks go to 127.0.0.1:" + port.port() + " and send $" + ClaudeHttpHooks.TOKEN_VARIABLE
                + " from Claude Code's environment; set it where you start claude:");
        out.println("  export " + ClaudeHttpHooks.TOKEN_VARIABLE + "=\"$(cut -d' ' -f2 " + portFile + ")\"");
        out.println("(the token is only in " + portFile + ", mode 0600; an HTTP hook whose resident is down fails open)");
    }
}
