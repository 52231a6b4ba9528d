package dev.agentwarden.cli;

import dev.agentwarden.cli.DoctorCommand.Finding;
import dev.agentwarden.cli.DoctorCommand.Section;
import dev.agentwarden.install.HookLauncher;
import dev.agentwarden.install.HookCommand;
import dev.agentwarden.install.HookFileInstaller;
import dev.agentwarden.install.HostTrustGate;
import dev.agentwarden.install.InstallReport;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.SettingsFile;
import dev.agentwarden.install.claude.ClaudeHttpHooks;
import dev.agentwarden.install.claude.ClaudeSettings;
import dev.agentwarden.io.CacheDir;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.manifest.ManifestException;
import dev.agentwarden.manifest.ManifestLoader;
import dev.agentwarden.server.HookPorts;
import dev.agentwarden.server.WardenServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Doctor's check of one host and scope: the installed entries against what {@code install} would write
 * now (computed by install's own code: {@link InstallCommand#bindings} and the host's
 * {@link dev.agentwarden.host.Installer}), launchers that no longer exist, and the host's own gate
 * ({@link HostTrustGate}).
 */
final class InstalledHooksCheck {
    /** How a host's section begins the note that nothing is installed there. */
    static final String NOT_INSTALLED = "not installed (";

    private InstalledHooksCheck() {
    }

    /** What is installed for {@code host} in {@code scope}, against what install would write now. */
    static Section run(String host, String scope, Path root, Path launcher, Map<String, String> env) {
        List<Finding> found = new ArrayList<>();
        StringWriter why = new StringWriter();
        InstallCommand.Target target = InstallCommand.Target.resolve(host, scope, root, new PrintWriter(why));
        if (target == null) {
            found.add(Finding.problem(why.toString().strip(), "see `warden install --help`"));
            return new Section(host + " " + scope, found);
        }
        Section section = new Section(host + " " + scope + ": " + target.settings(), found);
        String install = "warden install --host " + host + " --scope " + scope
                + (scope.equals("project") ? " --project-dir " + root : "");
        if (target.installer() instanceof HookFileInstaller) {
            return hookFiles(section, target, root, install, env);
        }
        byte[] current;
        try {
            current = target.settingsFile().read();
        } catch (SettingsFile.SettingsException e) {
            found.add(Finding.problem(e.getMessage(), "fix " + target.settings() + ", then `" + install + "`"));
            return section;
        }
        for (String kept : target.installer().lookalikes(current)) {
            found.add(Finding.note("an entry that runs Warden but is not Warden's own (kept as yours): " + kept));
        }
        List<Installer.Entry> entries = target.installer().entries(current);
        if (entries.isEmpty()) {
            found.add(Finding.note(NOT_INSTALLED + "`" + install + "` installs it)"));
            return section;
        }
        for (String gone : missingLaunchers(entries)) {
            found.add(Finding.problem("entries run " + gone + ", which no longer exists: the host fails those hooks",
                    install));
        }
        if (launcher == null || !Files.isExecutable(launcher)) {
            found.add(Finding.problem("cannot find this Warden's bin/warden to compare the entries with",
                    "run doctor as bin/warden doctor from a Warden checkout"));
            return section;
        }
        Manifest manifest;
        try {
            manifest = ManifestLoader.load(ManifestLoader.locate(null, root.toString()), env);
        } catch (ManifestException e) {
            found.add(Finding.problem("the manifest install would read does not load: " + e.getMessage(),
                    "warden manifest lint"));
            return section;
        }
        List<Installer.Binding> bindings = InstallCommand.bindings(manifest, target.host(), target.user());
        if (overHttp(entries)) {
            Path dir = CacheDir.root(env).resolve("resident");
            WardenServer.HookPort port = HookPorts.read(dir);
            if (port == null) {
                found.add(Finding.problem("entries send events over HTTP, but " + dir.resolve(HookPorts.FILE)
                        + " names no hook port (or is not yours alone): no resident serves them, and the host lets"
                        + " those events proceed", install + " --transport http"));
                return section;
            }
            Path realRoot;
            try {
                realRoot = root.toRealPath();
            } catch (IOException e) {
                realRoot = root.toAbsolutePath().normalize();
            }
            HttpInstall http = HttpInstall.planned(host, manifest, bindings, port, dir.resolve(HookPorts.FILE), realRoot);
            if (!target.user() && dev.agentwarden.io.HookProjects.root(dir, dev.agentwarden.io.HookProjects.id(realRoot)) == null) {
                found.add(Finding.problem("entries send events over HTTP, but " + realRoot + " is not in "
                        + dir.resolve(dev.agentwarden.io.HookProjects.NAME) + " (or the file is not yours alone): the"
                        + " resident refuses every event of this project's HTTP hooks", install + " --transport http"));
            }
            bindings = http.bindings();
            found.add(Finding.note("transports: " + transports(http.plan())));
        }
        HookCommand.IfMissing portable = portableMode(entries);
        if (portable != null) {
            found.add(onPathFinding(portable, env.get("PATH")));
        } else if (target.portable() && target.installer().ownsWholeFile()) {
            found.add(onPathFinding(null, env.get("PATH")));
        }
        String hook = compiledHook(entries);
        if (hook != null && !Files.isExecutable(Path.of(hook))) {
            found.add(Finding.note("entries run the compiled hook " + hook + ", which is gone: each event falls back to "
                    + launcher + " (slower, same verdicts); `bin/warden build-hook` or `" + install + "` builds it again"));
        }
        byte[] wanted;
        try {
            HookLauncher wantedLauncher = portable != null ? HookLauncher.portable(portable)
                    : target.portable() ? HookLauncher.portable(HookCommand.IfMissing.BLOCK)
                    : hook != null ? HookLauncher.fast(FastHook.path(launcher).toString(), launcher.toString())
                    : HookLauncher.plain(launcher.toString());
            wanted = target.installer().install(current, wantedLauncher, bindings);
        } catch (SettingsFile.SettingsException e) {
            found.add(Finding.problem("install could not rewrite it: " + e.getMessage(), "fix " + target.settings()));
            return section;
        }
        InstallReport report = InstallReport.between(entries, target.installer().entries(wanted));
        if (report.isEmpty()) {
            found.add(Finding.ok(entries.size() + " entr" + (entries.size() == 1 ? "y" : "ies") + " ("
                    + events(entries) + "), as `warden install` would write them now for " + ManifestCheck.shortName(manifest.source(), root)));
        }
        for (Installer.Entry e : report.added()) {
            found.add(Finding.problem("no entry for " + e.nativeEvent() + ", which the manifest binds: Warden does not"
                    + " see those events", install));
        }
        for (Installer.Entry[] c : report.changed()) {
            found.add(Finding.problem("hooks." + c[0].nativeEvent() + ": " + drift(c[0], c[1]), install));
        }
        for (Installer.Entry e : report.removed()) {
            found.add(Finding.problem("an entry for " + e.nativeEvent() + ", which nothing in the manifest binds"
                    + " (a JVM start per event for nothing)", install));
        }
        HostTrustGate gate = HostTrustGate.forHost(host);
        if (gate != null) {
            for (HostTrustGate.Finding f : gate.check(target.settings(), target.user(), root, env)) {
                found.add(f.problem() ? Finding.problem(f.text(), f.fix()) : Finding.note(f.text()));
            }
        }
        return section;
    }

    /** {@link #run} for a host whose hooks are files of their own. */
    private static Section hookFiles(Section section, InstallCommand.Target target, Path root, String install,
                                     Map<String, String> env) {
        List<Installer.Binding> bindings;
        try {
            bindings = InstallCommand.bindings(ManifestLoader.load(ManifestLoader.locate(null, root.toString()), env),
                    target.host(), target.user());
        } catch (ManifestException e) {
            section.findings().add(Finding.problem("the manifest install would read does not load: " + e.getMessage(),
                    "warden manifest lint"));
            return section;
        }
        section.findings().addAll(HookFilesInstall.check(target, bindings, install, env.get("PATH")));
        return section;
    }

    /**
     * Whether {@code warden} is on PATH here, for committed hooks that run it from PATH and answer per
     * {@code --if-missing mode} where it is missing ({@code null}: the mode is not known); {@code path} is PATH.
     */
    static Finding onPathFinding(HookCommand.IfMissing mode, String path) {
        return InstallCommand.onPath("warden", path) ? Finding.ok("entries run `warden` from PATH, and it is on PATH here")
                : Finding.problem("entries run `warden` from PATH (committed settings), and it is not on PATH here:"
                + " on this machine they answer as if Warden were missing"
                + (mode == null ? "" : " (--if-missing " + mode.wire() + ")"),
                "install Warden (npm install -g agent-warden, or put the release's bin/warden on PATH)");
    }

    /**
     * The {@code --if-missing} mode of the portable entries ({@link HookLauncher#portable}): the first
     * mode every one of them is written in (on an event that cannot refuse the modes write alike),
     * else the first entry's; {@code null} when none is portable.
     */
    private static HookCommand.IfMissing portableMode(List<Installer.Entry> entries) {
        List<HookCommand.IfMissing> common = null;
        HookCommand.IfMissing first = null;
        for (Installer.Entry e : entries) {
            List<HookCommand.IfMissing> modes = e.target() == null ? List.of() : ClaudeSettings.portableModes(e.target());
            if (modes.isEmpty()) {
                continue;
            }
            if (common == null) {
                common = new ArrayList<>(modes);
                first = modes.get(0);
            } else {
                common.retainAll(modes);
            }
        }
        return common == null ? null : common.isEmpty() ? first : common.get(0);
    }

    /** The compiled hook the first fast entry runs first ({@link HookCommand}), or {@code null}. */
    private static String compiledHook(List<Installer.Entry> entries) {
        for (Installer.Entry e : entries) {
            HookCommand.Fast fast = e.target() == null ? null : ClaudeSettings.fastParts(e.target());
            if (fast != null) {
                return fast.hook();
            }
        }
        return null;
    }

    /** The launchers entries run that are gone. */
    private static List<String> missingLaunchers(List<Installer.Entry> entries) {
        TreeSet<String> gone = new TreeSet<>();
        for (Installer.Entry e : entries) {
            if (e.launcher() != null && !Files.isExecutable(Path.of(e.launcher()))) {
                gone.add(e.launcher());
            }
        }
        return new ArrayList<>(gone);
    }

    /** How an installed entry differs from the one install would write: tools missed or extra, another launcher. */
    static String drift(Installer.Entry installed, Installer.Entry wanted) {
        List<String> parts = new ArrayList<>();
        if (!String.valueOf(installed.matcher()).equals(String.valueOf(wanted.matcher()))) {
            List<String> has = tools(installed.matcher());
            List<String> wants = tools(wanted.matcher());
            if (has.contains("*") || wants.contains("*") || has.isEmpty() || wants.isEmpty()) {
                parts.add("matcher " + shown(installed.matcher()) + ", the manifest needs " + shown(wanted.matcher()));
            } else {
                List<String> missing = new ArrayList<>(wants);
                missing.removeAll(has);
                List<String> extra = new ArrayList<>(has);
                extra.removeAll(wants);
                if (!missing.isEmpty()) {
                    parts.add("matcher " + shown(installed.matcher()) + " misses " + String.join(", ", missing)
                            + ", which the manifest's chain names (those tool calls are not checked)");
                }
                if (!extra.isEmpty()) {
                    parts.add("matcher " + shown(installed.matcher()) + " also matches " + String.join(", ", extra)
                            + ", which nothing binds");
                }
            }
        }
        if (installed.launcher() != null && wanted.launcher() != null && !installed.launcher().equals(wanted.launcher())) {
            parts.add("runs " + installed.launcher() + ", not this Warden's " + wanted.launcher());
        }
        return parts.isEmpty() ? InstallReport.change(installed, wanted) : String.join("; ", parts);
    }

    private static List<String> tools(String matcher) {
        return matcher == null ? List.of() : Arrays.asList(matcher.split("\\|"));
    }

    private static String shown(String matcher) {
        return matcher == null ? "(none)" : "\"" + matcher + "\"";
    }

    private static boolean overHttp(List<Installer.Entry> entries) {
        for (Installer.Entry e : entries) {
            if (e.transport().equals("http")) {
                return true;
            }
        }
        return false;
    }

    /** {@code http: PreToolUse, Stop; command: SessionStart (starts the resident …)}. */
    private static String transports(List<ClaudeHttpHooks.Transport> plan) {
        List<String> http = new ArrayList<>();
        List<String> command = new ArrayList<>();
        for (ClaudeHttpHooks.Transport t : plan) {
            if (t.kind().equals("http")) {
                http.add(t.nativeEvent());
            } else {
                command.add(t.nativeEvent() + " (" + t.reason() + ")");
            }
        }
        return "http: " + (http.isEmpty() ? "none" : String.join(", ", http)) + "; command: "
                + (command.isEmpty() ? "none" : String.join(", ", command));
    }

    private static String events(List<Installer.Entry> entries) {
        List<String> names = new ArrayList<>();
        for (Installer.Entry e : entries) {
            names.add(e.nativeEvent());
        }
        return String.join(", ", names);
    }

    /** Whether a host's section says only that nothing is installed there (notes alone, one of them "not installed"). */
    static boolean notInstalled(Section section) {
        boolean said = false;
        for (Finding f : section.findings()) {
            if (f.status() != Finding.Status.NOTE) {
                return false;
            }
            said |= f.text().startsWith(NOT_INSTALLED);
        }
        return said;
    }
}
