package dev.agentwarden.cli;

import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.event.EventName;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.host.OwnTools;
import dev.agentwarden.install.HookLauncher;
import dev.agentwarden.install.HookCommand;
import dev.agentwarden.install.HookFile;
import dev.agentwarden.install.HookFileInstaller;
import dev.agentwarden.install.HostSetup;
import dev.agentwarden.install.HostSetups;
import dev.agentwarden.install.HostTrustGate;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.PluginFile;
import dev.agentwarden.install.SettingsFile;
import dev.agentwarden.io.CacheDir;
import dev.agentwarden.io.PeerUid;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.manifest.ManifestLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code warden install --host H}: writes Warden's hook entries into the host's settings through the
 * host's {@link Installer} for the scope ({@link Hosts#ALL}), then trains the class-data archive for
 * the JVM the launcher will use.
 *
 * <p>Project scope binds the native events the manifest in force gives a chain, with a tool
 * matcher narrowed to the chain's tools where every concern names its tools (fewer JVM starts), and
 * of those to the host's own ({@link OwnTools}: not the tool names of every other host).
 * User scope binds every event the manifest aliases (every event the host sends, when it aliases
 * none) with matcher "*", since
 * each project may bring its own manifest.
 */
@Command(name = "install", description = "Install Warden's hooks into a host's settings.")
final class InstallCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--host", required = true, paramLabel = "H", description = "The host: ${bundle:warden.hosts}.")
    String host;

    @Option(names = "--scope", description = "project, user, local (Claude Code's uncommitted"
            + " .claude/settings.local.json) or managed (the host's machine-wide policy settings, as root;"
            + " docs/managed-install.md): which of the host's settings files (default: the host's usual one)."
            + " Project settings are committed, so they run `warden` from PATH; user and local ones run this"
            + " machine's Warden directly.")
    String scope;

    @Option(names = "--if-missing", defaultValue = "block", description = "What the committed (project) hooks do on a"
            + " machine without warden on PATH: block (default: refuse tool calls and prompts, saying what to"
            + " install), warn, or allow.")
    String ifMissing;

    @Option(names = "--managed-only", description = "With --scope managed: also tell the host to run managed hooks alone"
            + " (Claude Code: allowManagedHooksOnly; Codex: allow_managed_hooks_only), so user and project hooks stop running.")
    boolean managedOnly;

    @Option(names = "--dry-run", description = "Print the settings that would be written; change nothing.")
    boolean dryRun;

    @Mixin
    CwdProjectOption project;

    @Option(names = "--manifest", description = "Manifest whose bindings to install (default: the one in force).")
    String manifestFile;

    @Option(names = "--no-train", description = "Skip training the start-up archive.")
    boolean noTrain;

    @Option(names = "--fast-hook", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "User and local scope: run hooks through the compiled C client where cc exists and the host"
            + " runs hooks through a shell (default; falls back to bin/warden when it is gone; see README \"Compiled hook\")."
            + " --no-fast-hook: hooks run bin/warden.")
    boolean fastHook;

    @Option(names = "--transport", defaultValue = "command", description = "command (default) or http (Claude Code"
            + " type:\"http\" hooks to the resident; SessionStart and events with a fail_closed concern stay commands).")
    String transport;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Target target = Target.resolve(host, scope, project.root(), err);
        if (target == null) {
            return ExitCode.UNREADABLE.code();
        }
        HookCommand.IfMissing missing = HookCommand.IfMissing.named(ifMissing);
        if (missing == null) {
            err.println("warden: --if-missing must be block, warn or allow, not '" + ifMissing + "'");
            return ExitCode.UNREADABLE.code();
        }
        if (managedOnly && !target.managed()) {
            err.println("warden install: --managed-only goes with --scope managed");
            return ExitCode.UNREADABLE.code();
        }
        if (target.managed()) {
            return ManagedInstall.install(target, manifestFile, managedOnly, dryRun, out, err);
        }
        Manifest manifest = ManifestLoader.load(ManifestLoader.locate(manifestFile, target.root().toString()), System.getenv());
        List<Installer.Binding> bindings = bindings(manifest, target.host(), target.user());
        HttpInstall http = null;
        if (!"command".equals(transport)) {
            http = HttpInstall.prepare(transport, target.host().id(), target.user(), target.root(), manifest, bindings, err);
            if (http == null) {
                return ExitCode.UNREADABLE.code();
            }
            bindings = http.bindings();
        }
        if (bindings.isEmpty()) {
            err.println("warden install: " + nothingBound(manifest, target.host().id()) + "; nothing installed");
            return ExitCode.FINDINGS.code();
        }
        Path home = DemoCommand.home();
        Path launcher = home == null ? null : home.resolve("bin/warden");
        if (launcher == null || !Files.isExecutable(launcher)) {
            err.println("warden install: cannot find bin/warden (run it as bin/warden install from a Warden checkout)");
            return ExitCode.UNREADABLE.code();
        }
        if (target.installer() instanceof HookFileInstaller) {
            int code = HookFilesInstall.install(target, target.portable() ? HookLauncher.portable(missing)
                    : HookLauncher.plain(launcher.toString()), bindings, dryRun, out, err);
            if (code == ExitCode.OK.code() && !dryRun) {
                if (target.portable()) {
                    reportPortable(missing, launcher, out);
                }
                finish(target, launcher, out);
            }
            return code;
        }
        HookFile file = target.settingsFile();
        // Committed settings: warden from PATH, answering the host itself where it is missing (HookCommand).
        // Else the compiled client, with bin/warden behind it, where one can be built (FastHook); else bin/warden.
        HookLauncher hookLauncher = target.portable() ? HookLauncher.portable(missing)
                : fastHook ? FastHook.launcherFor(target.host().id(), launcher, dryRun, out)
                : HookLauncher.plain(launcher.toString());
        List<Installer.Binding> written = bindings;
        byte[][] before = new byte[1][];
        SettingsFile.Edit edit = doc -> target.installer().install(before[0] = doc, hookLauncher, written);
        byte[] after;
        try {
            if (dryRun) {
                after = file.preview(edit);
                out.println("# would write " + file.describe());
                out.print(new String(after, StandardCharsets.UTF_8));
                return ExitCode.OK.code();
            }
            after = file.update(edit);
            if (http != null) {
                try {
                    http.record();
                } catch (IOException e) {
                    err.println("warden install: hooks written to " + file.describe() + ", but the HTTP hook port or"
                            + " project could not be recorded (" + e.getMessage() + "); the resident will refuse their"
                            + " events until warden install --transport http succeeds");
                    return ExitCode.UNREADABLE.code();
                }
            }
            out.println("installed " + bindings.size() + " hook(s) for " + target.host().id() + " in " + file.describe() + ":");
        } catch (SettingsFile.SettingsException e) {
            err.println("warden install: " + e.getMessage() + " [" + e.code() + "]");
            return ExitCode.UNREADABLE.code();
        }
        target.installer().changeReport(before[0], after).forEach(line -> out.println("  " + line));
        target.reportLookalikes(after, out);
        if (target.portable()) {
            reportPortable(missing, launcher, out);
        }
        HostTrustGate gate = HostTrustGate.forHost(target.host().id());
        if (gate != null) {
            List<String> notes = gate.installNotes(target.settings(), target.user(), target.root(), System.getenv());
            for (String note : notes) {
                out.println("note: " + note);
            }
            if (notes.isEmpty()) {
                for (HostTrustGate.Finding f : gate.check(file.path(), target.user(), target.root(), System.getenv())) {
                    out.println("  " + (f.problem() ? "warning: " : "note: ") + f.text() + (f.fix() == null ? "" : "; " + f.fix()));
                }
            }
        }
        if (http != null) {
            http.report(out);
        }
        finish(target, launcher, out);
        return ExitCode.OK.code();
    }

    /** What every install does once the hooks are written: trust the manifest, train the archive, say how hooks run. */
    private void finish(Target target, Path launcher, PrintWriter out) {
        if (manifestFile == null) {
            out.println(TrustCommand.onInstall(target.root(), System.getenv(), Clock.systemUTC()));
        }
        if (!noTrain) {
            out.println(trainArchive(launcher));
        }
        out.println("the first hook starts a resident Warden server (stops after 30 min idle) that later hooks hand"
                + " events to; WARDEN_RESIDENT=off in the host's environment keeps one JVM per event");
    }

    /** Says that the committed hooks run {@code warden} from PATH, what they do where it is missing, and whether it is here. */
    private static void reportPortable(HookCommand.IfMissing missing, Path launcher, PrintWriter out) {
        out.println("  these entries run `warden` from PATH (the file is committed; no path of this machine is in it);"
                + " where warden is missing they " + whereMissing(missing));
        if (!onPath("warden", System.getenv("PATH"))) {
            out.println("  warning: warden is not on PATH here: put " + launcher + " on PATH (for example ln -s "
                    + launcher + " ~/.local/bin/warden) or install the release, else these hooks "
                    + whereMissing(missing) + " on this machine too");
        }
    }

    private static String whereMissing(HookCommand.IfMissing mode) {
        switch (mode) {
            case BLOCK:
                return "refuse tool calls and prompts, saying what to install (--if-missing block)";
            case WARN:
                return "let everything through with a warning (--if-missing warn)";
            default:
                return "let everything through (--if-missing allow)";
        }
    }

    /** Whether an executable named {@code name} is in a directory on {@code path} (a PATH value). */
    static boolean onPath(String name, String path) {
        if (path == null) {
            return false;
        }
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                return true;
            }
        }
        return false;
    }

    /** Why a manifest gives {@code host} no hook to install, in words that say what to add. */
    static String nothingBound(Manifest manifest, String host) {
        String why;
        if (manifest.aliasesFor(host).isEmpty()) {
            why = "it names no native events for " + host + " (native_event_aliases." + host + ")";
        } else if (manifest.chains().getOrDefault(host, Map.of()).isEmpty()) {
            why = "it binds no concerns for " + host + " (platforms." + host + ")";
        } else {
            why = "none of its platforms." + host + " chains is on an event named in native_event_aliases." + host;
        }
        return "manifest " + manifest.source() + " binds nothing for " + host + ": " + why
                + "; installing would write hooks that do nothing";
    }

    /** The hooks to write: one per native event, with the narrowest safe matcher. */
    static List<Installer.Binding> bindings(Manifest manifest, Host target, boolean allEvents) {
        String host = target.id();
        Map<String, EventName> aliases = manifest.aliasesFor(host);
        List<String> events = allEvents ? new ArrayList<>(new TreeSet<>(userScopeEvents(manifest, host)))
                : manifest.boundNativeEvents(host);
        List<Installer.Binding> out = new ArrayList<>();
        Map<String, EventName> named = manifest.aliases().getOrDefault(host, Map.of());
        Installer installer = HostSetups.of(target).installer(allEvents ? Host.Scope.USER : Host.Scope.PROJECT);
        for (String nativeEvent : events) {
            if (Hosts.installedOnlyWhenNamed(host, nativeEvent) && !named.containsKey(nativeEvent)
                    || installer != null && !installer.writes(nativeEvent)) {
                continue;
            }
            String matcher = null;
            if (target.isToolEvent(nativeEvent)) {
                matcher = "*";
                if (!allEvents) {
                    List<ConcernSpec> chain = manifest.chain(host, aliases.get(nativeEvent), Manifest.DEFAULT_ROLE);
                    if (!chain.isEmpty() && chain.stream().allMatch(c -> !c.tools().isEmpty() && !c.tools().contains("*"))) {
                        TreeSet<String> tools = new TreeSet<>();
                        chain.forEach(c -> tools.addAll(c.tools()));
                        if (tools.stream().allMatch(t -> t.matches("[A-Za-z0-9_-]+"))) {
                            matcher = String.join("|", OwnTools.of(target, tools));
                        }
                    }
                }
            }
            out.add(new Installer.Binding(nativeEvent, matcher));
        }
        return out;
    }

    /**
     * The native events a user-scope install hooks: those the manifest names in
     * {@code native_event_aliases} for the host, or, when it names none, every event the host sends.
     */
    private static java.util.Set<String> userScopeEvents(Manifest manifest, String host) {
        Map<String, EventName> own = manifest.aliases().getOrDefault(host, Map.of());
        return own.isEmpty() ? manifest.aliasesFor(host).keySet() : own.keySet();
    }

    private static String trainArchive(Path launcher) {
        try {
            Process p = new ProcessBuilder(launcher.toString(), "train-archive").redirectErrorStream(true).start();
            p.getOutputStream().close();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "start-up archive: training timed out (dispatch still works, just slower to start)";
            }
            return p.exitValue() == 0 ? "start-up archive: " + output.replace("warden: ", "")
                    : "start-up archive: training failed (dispatch still works, just slower to start): " + output;
        } catch (IOException e) {
            return "start-up archive: not trained (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "start-up archive: not trained (interrupted)";
        }
    }

    /** Which settings file an install or uninstall edits. */
    record Target(Host host, Installer installer, boolean user, Path settings, Path root, Host.Scope scope) {
        static Target resolve(String hostName, String scope, Path root, PrintWriter err) {
            String hostId = Hosts.canonical(hostName);
            if (Hosts.unknown(hostId) != null) {
                err.println("warden: " + Hosts.unknown(hostId));
                return null;
            }
            Host host = Hosts.byId(hostId);
            if (host == null) {
                List<String> ids = Hosts.ids();
                err.println("warden: --host must be " + String.join(", ", ids.subList(0, ids.size() - 1)) + " or "
                        + ids.get(ids.size() - 1) + " (other hosts are not installable yet)");
                return null;
            }
            HostSetup setup = HostSetups.of(host);
            Host.Scope chosen = scope == null ? setup.defaultScope() : Host.Scope.named(scope);
            if (chosen == null) {
                err.println("warden: --scope must be project, user, local or managed, not '" + scope + "'");
                return null;
            }
            Installer installer = setup.installer(chosen);
            if (installer == null && chosen == Host.Scope.MANAGED) {
                err.println("warden: --scope managed is not built for " + host.displayName() + " yet (see"
                        + " docs/managed-install.md for the hosts it is)");
                return null;
            }
            if (chosen == Host.Scope.MANAGED && PeerUid.self() != 0) {
                err.println("warden: --scope managed edits " + installer.describe() + ", the machine's policy settings,"
                        + " which only root may write; run it as root (sudo)");
                return null;
            }
            if (installer == null && chosen == Host.Scope.LOCAL) {
                err.println("warden: " + host.displayName() + " has no local (uncommitted) settings file; use --scope "
                        + setup.defaultScope().wire() + (setup.installer(Host.Scope.USER) != null
                        && setup.defaultScope() != Host.Scope.USER ? " or --scope user" : ""));
                return null;
            }
            if (installer == null) {
                Installer only = setup.installer(setup.defaultScope());
                err.println("warden: " + host.displayName() + " honours only " + setup.defaultScope().wire() + " settings ("
                        + only.describe() + "); use --scope " + setup.defaultScope().wire());
                return null;
            }
            return new Target(host, installer, chosen == Host.Scope.USER || chosen == Host.Scope.MANAGED,
                    installer.settingsFile(root, System.getenv()), root, chosen);
        }

        /** Whether this is the host's managed (machine policy) settings file. */
        boolean managed() {
            return scope == Host.Scope.MANAGED;
        }

        /**
         * Whether the hooks are written in the portable form ({@link HookLauncher#portable}): project
         * settings a team commits, where the host runs the entry's command through a shell, or a hook
         * file or plugin of Warden's own, which finds {@code warden} on PATH itself.
         */
        boolean portable() {
            return scope == Host.Scope.PROJECT && (installer.ownsWholeFile() || installer instanceof HookFileInstaller
                    || HostSetups.of(host).hookShell() || installer.commandRunsInAShell());
        }

        /**
         * The settings file, locked in Warden's cache directory; a project's must resolve inside the
         * project (links included), a user's may lead anywhere (dotfiles).
         */
        HookFile settingsFile() {
            Path locks = CacheDir.root(System.getenv()).resolve("locks");
            if (installer.ownsWholeFile()) {
                return new PluginFile(settings, locks, user ? null : root);
            }
            return installer.writesToml() ? SettingsFile.toml(settings, locks, user ? null : root)
                    : new SettingsFile(settings, locks, user ? null : root);
        }

        /** Notes the entries that run Warden but are not exactly Warden's, which install and uninstall leave. */
        void reportLookalikes(byte[] settings, PrintWriter out) {
            for (String kept : installer.lookalikes(settings)) {
                out.println("  kept " + kept);
                out.println("    (not exactly the entry Warden writes, so it is yours: left as written; remove it by hand if"
                        + " Warden's own entry replaces it)");
            }
        }
    }
}
