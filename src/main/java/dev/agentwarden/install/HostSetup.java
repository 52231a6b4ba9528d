package dev.agentwarden.install;

import dev.agentwarden.host.Host;
import java.util.Map;

/**
 * How Warden's hooks get into one host's settings, beside that host's runtime facts ({@link Host}): read
 * by {@code install}, {@code uninstall}, {@code doctor} and {@code serve}, one per host in {@link HostSetups},
 * built only where one of those asks for it (a dispatch builds none: {@code protect-warden} reads where the
 * installers' files lie from {@link Host#setupFiles}).
 *
 * @param host         the host's runtime record
 * @param installers   where and how {@code install} writes hooks, per scope the host reads
 * @param defaultScope the scope {@code install} uses when none is named
 * @param trustGate    the host's own gate in front of Warden's hooks ({@code install} and {@code doctor}
 *                     report it), or {@code null} when it runs whatever its settings name
 * @param serveHooks   the hook block {@code warden serve} prints for this host, or {@code null} when the
 *                     host has no HTTP hooks
 * @param hookShell    whether the host runs a hook's command through a POSIX shell ({@code sh -c},
 *                     {@code bash -c}), so an installed command may test for the compiled hook and fall
 *                     back to {@code bin/warden} at no extra process
 */
public record HostSetup(Host host, Map<Host.Scope, Installer> installers, Host.Scope defaultScope,
                        HostTrustGate trustGate, ServeHooks serveHooks, boolean hookShell) {

    /** A host with no trust gate and no HTTP hook block, whose hook commands run without a shell. */
    public HostSetup(Host host, Map<Host.Scope, Installer> installers, Host.Scope defaultScope) {
        this(host, installers, defaultScope, null, null, false);
    }

    /** This setup behind {@code gate} ({@link #trustGate}). */
    public HostSetup gatedBy(HostTrustGate gate) {
        return new HostSetup(host, installers, defaultScope, gate, serveHooks, hookShell);
    }

    /** This setup with {@code hooks} as its {@link #serveHooks}. */
    public HostSetup serving(ServeHooks hooks) {
        return new HostSetup(host, installers, defaultScope, trustGate, hooks, hookShell);
    }

    /** This setup for a host that runs hook commands through a POSIX shell ({@link #hookShell}). */
    public HostSetup runningHooksInAShell() {
        return new HostSetup(host, installers, defaultScope, trustGate, serveHooks, true);
    }

    /** The host's id. */
    public String id() {
        return host.id();
    }

    /** The installer for a scope, or {@code null} when the host reads no hooks there. */
    public Installer installer(Host.Scope scope) {
        return installers.get(scope);
    }

    /** The hook block {@code warden serve} prints: HTTP hooks pointing at the running server. */
    public interface ServeHooks {
        /** The line printed above the block, saying where to merge it. */
        String heading();

        /** The settings block sending each covered event to {@code http://127.0.0.1:<port>/dispatch/<id>/<Event>}. */
        Map<String, Object> block(int port);
    }
}
