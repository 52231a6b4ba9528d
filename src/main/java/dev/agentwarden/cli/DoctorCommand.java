package dev.agentwarden.cli;

import dev.agentwarden.decision.DecisionLog;
import dev.agentwarden.decision.DecisionReader;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.install.HookCommand;
import dev.agentwarden.install.HookFileInstaller;
import dev.agentwarden.install.HostSetups;
import dev.agentwarden.install.HostTrustGate;
import dev.agentwarden.install.InstallReport;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.SettingsFile;
import dev.agentwarden.install.claude.ClaudeHttpHooks;
import dev.agentwarden.install.claude.ClaudeSettings;
import dev.agentwarden.io.CacheDir;
import dev.agentwarden.json.Json;
import dev.agentwarden.managed.ManagedLayer;
import dev.agentwarden.managed.ManagedSettings;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.manifest.ManifestCompiler;
import dev.agentwarden.manifest.ManifestException;
import dev.agentwarden.manifest.ManifestLoader;
import dev.agentwarden.manifest.ManifestProblem;
import dev.agentwarden.server.HookPorts;
import dev.agentwarden.server.ResidentStatus;
import dev.agentwarden.server.WardenServer;
import dev.agentwarden.trust.ProjectManifest;
import dev.agentwarden.trust.TrustRecord;
import dev.agentwarden.trust.TrustStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code warden doctor}: whether Warden is set up to do what the manifest says, and the command
 * that fixes each thing that is not. For every installable host and scope, the installed entries
 * against what {@code install} would write now (computed by install's own code:
 * {@link InstallCommand#bindings} and the host's {@link dev.agentwarden.install.Installer}), launchers that no longer
 * exist, and the host's own gate ({@link HostTrustGate}); the manifest in force, its lint and
 * trust; the resident (asked through its proven channel, {@link ResidentStatus}); the start-up
 * archive; and the last decisions and errors of the decision log. It changes nothing.
 */
@Command(name = "doctor", description = {"Check Warden's set-up: installed hooks against what `install` would write"
        + " now, the manifest in force (lint, trust), the resident server, the start-up archive and recent decisions.",
        "Exit 0 when all is in order, 1 with each problem and the command that fixes it."})
final class DoctorCommand implements Callable<Integer> {
    /** The hosts {@code install} can write, in the order they are checked. */
    static final List<String> HOSTS = Hosts.ids();
    /** Decisions and errors shown from the log. */
    static final int RECENT = 5;
    /** Errors younger than this are problems; older ones are shown as notes. */
    static final Duration ERROR_WINDOW = Duration.ofHours(24);
    /** Deadline of each step of the resident's status query. */
    static final Duration RESIDENT_DEADLINE = Duration.ofSeconds(2);
    /** How a host's section begins the note that nothing is installed there. */
    static final String NOT_INSTALLED = "not installed (";

    @Spec
    CommandSpec spec;

    @Option(names = "--host", paramLabel = "H", description = "Check only this host (default: every installed one): ${bundle:warden.hosts}.")
    String host;

    @Option(names = "--all", description = "Show every host, installed or not (default: the installed ones, and how many others).")
    boolean all;

    @Option(names = "--ack", description = "Acknowledge the errors in the decision log up to now (recorded in"
            + " .warden/state/" + ErrorAck.FILE + "): older errors are listed as notes and no longer fail doctor.")
    boolean ack;

    @Option(names = "--scope", paramLabel = "S", description = "Check only this scope: project or user (default: both).")
    String scope;

    @Mixin
    JsonOption output;

    @Mixin
    CwdProjectOption project;

    /** The clock recent errors are judged by. */
    Clock clock = Clock.systemUTC();

    /** One thing the doctor found: {@code ok}, {@code note} or {@code problem}, with the fix for a problem. */
    record Finding(String status, String text, String fix) {
        static Finding ok(String text) {
            return new Finding("ok", text, null);
        }

        static Finding note(String text) {
            return new Finding("note", text, null);
        }

        static Finding problem(String text, String fix) {
            return new Finding("problem", text, fix);
        }
    }

    /** A heading and what was found under it. */
    record Section(String name, List<Finding> findings) {
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        host = Hosts.canonical(host);
        if (host != null && !HOSTS.contains(host)) {
            String unknown = Hosts.unknown(host);
            err.println("warden doctor: " + (unknown != null ? unknown : "--host is one of " + String.join(", ", HOSTS)
                    + ", not '" + host + "' (other hosts cannot be installed yet)"));
            return ExitCode.UNREADABLE.code();
        }
        if (scope != null && Host.Scope.named(scope) == null) {
            err.println("warden doctor: --scope is project, user or local, not '" + scope + "'");
            return ExitCode.UNREADABLE.code();
        }
        Map<String, String> env = WardenCli.env(spec);
        Path root = project.root();
        if (ack) {
            try {
                ErrorAck.record(root, clock.instant());
            } catch (IOException e) {
                err.println("warden doctor: cannot record the acknowledgement: " + e.getMessage());
                return ExitCode.UNREADABLE.code();
            }
        }
        List<Section> sections = new ArrayList<>();
        sections.add(managed());
        sections.add(userLayer());
        sections.add(manifest(root, env));
        Path home = DemoCommand.home();
        Path launcher = home == null ? null : home.resolve("bin/warden");
        int hidden = 0;
        for (String h : host == null ? HOSTS : List.of(host)) {
            List<Section> hostSections = new ArrayList<>();
            boolean anyInstalled = false;
            for (String s : scope == null ? List.of("project", "local", "user") : List.of(scope)) {
                if (HostSetups.byId(h).installer(Host.Scope.named(s)) == null) {
                    continue;
                }
                Section section = installed(h, s, root, launcher, env);
                boolean shown = all || host != null || !notInstalled(section);
                anyInstalled |= !notInstalled(section);
                if (shown) {
                    hostSections.add(section);
                }
            }
            sections.addAll(hostSections);
            hidden += anyInstalled || all || host != null ? 0 : 1;
        }
        if (hidden > 0) {
            sections.add(new Section("other hosts", List.of(Finding.note(hidden + " other host" + (hidden == 1 ? "" : "s")
                    + " not installed (`warden doctor --all` lists them)"))));
        }
        sections.add(resident(env));
        sections.add(archive(WardenHome.locate(), env));
        Recent recent = recent(root.toString());
        sections.add(recent.section);

        List<Map<String, Object>> problems = new ArrayList<>();
        for (Section section : sections) {
            for (Finding f : section.findings()) {
                if (f.status().equals("problem")) {
                    Map<String, Object> p = new LinkedHashMap<>();
                    p.put("section", section.name());
                    p.put("problem", f.text());
                    p.put("fix", f.fix());
                    problems.add(p);
                }
            }
        }
        if (output.json) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("project", root.toString());
            json.put("ok", problems.isEmpty());
            json.put("not_in_force", NotInForce.line(root, env));
            List<Object> list = new ArrayList<>();
            for (Section section : sections) {
                Map<String, Object> s = new LinkedHashMap<>();
                s.put("name", section.name());
                List<Object> findings = new ArrayList<>();
                for (Finding f : section.findings()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("status", f.status());
                    m.put("text", f.text());
                    if (f.fix() != null) {
                        m.put("fix", f.fix());
                    }
                    findings.add(m);
                }
                s.put("findings", findings);
                list.add(s);
            }
            json.put("sections", list);
            json.put("recent_decisions", new ArrayList<Object>(recent.decisions));
            json.put("recent_errors", new ArrayList<Object>(recent.errors));
            json.put("problems", problems);
            out.println(Json.write(json));
        } else {
            String notInForce = NotInForce.line(root, env);
            if (notInForce != null) {
                out.println(notInForce);
            }
            print(out, root, sections, recent, problems);
        }
        return problems.isEmpty() ? ExitCode.OK.code() : ExitCode.FINDINGS.code();
    }

    private static void print(PrintWriter out, Path root, List<Section> sections, Recent recent,
                              List<Map<String, Object>> problems) {
        out.println("warden doctor: " + root);
        for (Section section : sections) {
            out.println();
            out.println(section.name());
            for (Finding f : section.findings()) {
                out.println("  " + (f.status().equals("problem") ? "PROBLEM" : f.status()) + " ".repeat(
                        Math.max(1, 8 - f.status().length())) + f.text());
            }
            if (section == recent.section && !recent.decisions.isEmpty()) {
                StringWriter table = new StringWriter();
                LogCommand.printTable(new PrintWriter(table), recent.decisions);
                table.toString().lines().forEach(l -> out.println("    " + l));
            }
        }
        out.println();
        if (problems.isEmpty()) {
            out.println("all in order");
            return;
        }
        out.println(problems.size() + " problem(s):");
        int n = 0;
        for (Map<String, Object> p : problems) {
            out.println("  " + ++n + ". " + p.get("section") + ": " + p.get("problem"));
            out.println("     fix: " + p.get("fix"));
        }
    }

    /** The administrator's layer under {@code /etc/agent-warden}: absent, in force (with what it sets), or refused. */
    private static Section managed() {
        List<Finding> found = new ArrayList<>();
        Section section = new Section("managed policy", found);
        ManagedLayer.State state = ManagedLayer.load();
        switch (state.status()) {
            case ABSENT -> found.add(Finding.note("none (" + ManagedLayer.DIR + " holds no manifest.yaml or settings.json)"));
            case REFUSED -> found.add(Finding.problem(state.problem(), "ask your administrator: files under "
                    + ManagedLayer.DIR + " must be owned by root and writable by root alone"));
            case LOADED -> {
                if (state.manifest() != null) {
                    found.add(Finding.ok("in force: " + ManagedLayer.MANIFEST + " (sha256:"
                            + state.manifest().sourceSha256().substring(0, 12) + "…), concerns "
                            + state.manifest().concerns().keySet() + " run first on every project"));
                }
                ManagedSettings s = state.settings();
                found.add(Finding.ok("settings: fail_mode " + (s.failMode() == null ? "(WARDEN_FAIL_MODE decides)" : s.failMode())
                        + ", project_scripts " + s.projectScripts() + ", reasons "
                        + (s.reasons() == null ? "(the manifest decides)" : s.reasons())
                        + ", min_version " + (s.minVersion() == null ? "(none)" : s.minVersion())
                        + ", retention " + (s.retentionDays() == 0 ? "(none)" : s.retentionDays() + " days")
                        + ", signers " + s.signers().size()
                        + ", telemetry " + (s.telemetry() == null ? "(none)" : s.telemetry().endpoint())));
            }
        }
        return section;
    }

    private static Section userLayer() {
        List<Finding> found = new ArrayList<>();
        Section section = new Section("user policy", found);
        List<String> notes = new ArrayList<>();
        dev.agentwarden.managed.UserLayer.State state = dev.agentwarden.managed.UserLayer.load(System.getenv(), notes);
        switch (state.status()) {
            case ABSENT -> found.add(Finding.note("none (" + state.file() + " does not exist)"));
            case REFUSED -> found.add(Finding.problem(state.problem(), "make it yours alone: chown $USER and chmod go-w "
                    + state.file() + " (and its directories), or fix what `warden manifest lint` says"));
            case LOADED -> found.add(Finding.ok("in force: " + state.file() + " (sha256:"
                    + state.manifest().sourceSha256().substring(0, 12) + "…), concerns "
                    + state.manifest().concerns().keySet() + " run after the managed layer and before the project's on every project"));
        }
        for (String note : notes) {
            found.add(Finding.note(note));
        }
        return section;
    }

    /** Whether a host's section says only that nothing is installed there (notes alone, one of them "not installed"). */
    private static boolean notInstalled(Section section) {
        boolean said = false;
        for (Finding f : section.findings()) {
            if (!f.status().equals("note")) {
                return false;
            }
            said |= f.text().startsWith(NOT_INSTALLED);
        }
        return said;
    }

    /** The manifest in force, whether the project's lints clean and is trusted as it is now. */
    private static Section manifest(Path root, Map<String, String> env) {
        List<Finding> found = new ArrayList<>();
        Section section = new Section("manifest", found);
        ProjectManifest.Resolution resolution;
        try {
            resolution = ProjectManifest.resolve(null, root.toString(), env);
        } catch (ManifestException e) {
            found.add(Finding.problem("the manifest in force does not load: " + e.getMessage(), "warden manifest lint"));
            return section;
        }
        ManifestLoader.Source inForce = resolution.source();
        String sha = inForce.sha256() != null ? inForce.sha256() : ManifestLoader.sha256(inForce.bytes());
        found.add(Finding.ok("in force: " + shortName(inForce.name(), root) + " (sha256:" + sha.substring(0, 12) + "…)"));
        for (String note : resolution.notes()) {
            found.add(Finding.problem(note.replaceFirst("^warden: ", ""), "review " + TrustStore.PROJECT_MANIFEST
                    + ", then run `warden trust` in " + root));
        }
        Path file = root.resolve(TrustStore.PROJECT_MANIFEST);
        if (!Files.isRegularFile(file)) {
            found.add(Finding.note("no " + TrustStore.PROJECT_MANIFEST + ": the built-in default manifest is in force"));
            return section;
        }
        try {
            ManifestLoader.Source source = ManifestLoader.read(file);
            ManifestCompiler.Result result = ManifestCompiler.compileAndCheckScripts(source.name(),
                    new String(source.bytes(), StandardCharsets.UTF_8), source.sha256(), root);
            List<ManifestProblem> errors = new ArrayList<>();
            for (ManifestProblem p : result.problems()) {
                if (p.isError()) {
                    errors.add(p);
                }
            }
            if (errors.isEmpty()) {
                found.add(Finding.ok(TrustStore.PROJECT_MANIFEST + " lints clean" + (result.problems().isEmpty() ? ""
                        : " (" + result.problems().size() + " warning(s): `warden manifest lint`)")));
            } else {
                found.add(Finding.problem(TrustStore.PROJECT_MANIFEST + " has " + errors.size() + " lint error(s), first: "
                        + errors.get(0), "warden manifest lint " + file + " (then fix what it names)"));
            }
        } catch (ManifestException e) {
            found.add(Finding.problem(TrustStore.PROJECT_MANIFEST + " does not load: " + e.getMessage(),
                    "warden manifest lint " + file));
        }
        TrustStore.Lookup lookup = TrustStore.forEnv(env).lookup(TrustStore.realRoot(root.toString()));
        TrustRecord record = lookup.record();
        if (record != null && resolution.notes().isEmpty()) {
            List<String> changed = new ArrayList<>();
            for (Map.Entry<String, String> f : record.files().entrySet()) {
                String now = TrustStore.currentHash(root, f.getKey());
                if (now != null && !now.equals(f.getValue())) {
                    changed.add(f.getKey());
                }
            }
            if (changed.isEmpty()) {
                found.add(Finding.ok("trusted as it is now (" + record.files().size() + " script file(s); `warden trust --show`)"));
            } else {
                found.add(Finding.problem("script(s) changed since trusted, so they do not run: " + String.join(", ", changed),
                        "review them, then run `warden trust` in " + root));
            }
        }
        return section;
    }

    /** What is installed for {@code host} in {@code scope}, against what install would write now. */
    private static Section installed(String host, String scope, Path root, Path launcher, Map<String, String> env) {
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
            String wantedLauncher = portable != null ? HookCommand.portable(portable)
                    : target.portable() ? HookCommand.portable(HookCommand.IfMissing.BLOCK)
                    : hook != null ? HookCommand.fast(FastHook.path(launcher).toString(), launcher.toString())
                    : launcher.toString();
            wanted = target.installer().install(current, wantedLauncher, bindings);
        } catch (SettingsFile.SettingsException e) {
            found.add(Finding.problem("install could not rewrite it: " + e.getMessage(), "fix " + target.settings()));
            return section;
        }
        InstallReport report = InstallReport.between(entries, target.installer().entries(wanted));
        if (report.isEmpty()) {
            found.add(Finding.ok(entries.size() + " entr" + (entries.size() == 1 ? "y" : "ies") + " ("
                    + events(entries) + "), as `warden install` would write them now for " + shortName(manifest.source(), root)));
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

    /** {@link #installed} for a host whose hooks are files of their own. */
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
     * The {@code --if-missing} mode of the portable entries ({@link HookCommand#portable}): the first
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

    /** The resident server for this jar, as its endpoint file and its own answer say. */
    private static Section resident(Map<String, String> env) {
        List<Finding> found = new ArrayList<>();
        Section section = new Section("resident server", found);
        if ("off".equals(env.get("WARDEN_RESIDENT"))) {
            found.add(Finding.note("WARDEN_RESIDENT=off here: bin/warden starts a JVM per event"));
        }
        String key;
        try {
            key = ResidentCommand.jarKey();
        } catch (IOException e) {
            found.add(Finding.note("not checked: " + e.getMessage().replace("; pass --key", "")));
            return section;
        }
        Path dir = CacheDir.root(env).resolve("resident");
        ResidentStatus.Answer a = ResidentStatus.query(dir, key, RESIDENT_DEADLINE);
        switch (a.state()) {
            case RUNNING:
                found.add(Finding.ok("running, pid " + a.pid() + ", up " + age(System.currentTimeMillis() - a.startedAt())
                        + ", answered " + a.forwarded() + " event(s)"));
                if (a.otlp() != null) {
                    found.add(liveExport(a.otlp()));
                }
                break;
            case NOT_RUNNING:
            case STALE:
                found.add(Finding.note("not running (" + a.detail() + "); the next hook starts one"));
                break;
            case UNSAFE:
                found.add(Finding.problem(a.detail() + "; nothing in it is used, so every event starts a JVM",
                        a.detail().startsWith("endpoint file") ? "rm " + a.endpointFile()
                                + " (bin/warden then starts a resident that writes its own)"
                                : "make " + dir + " yours alone (chmod 700 " + dir + ") or remove it; bin/warden recreates it private"));
                break;
            default:
                found.add(Finding.problem("pid " + a.pid() + " holds the endpoint but does not answer: " + a.detail(),
                        "warden resident stop (the next hook starts a new one)"));
        }
        return section;
    }

    /** The resident's live OpenTelemetry export ({@code WARDEN_OTLP_LIVE}): what it sent, dropped, and its last error. */
    static Finding liveExport(Map<String, Object> otlp) {
        if (otlp.get("error") instanceof String error) {
            return Finding.problem("live OpenTelemetry export asked for (WARDEN_OTLP_LIVE) but off: " + error,
                    "fix WARDEN_OTLP_LIVE (the collector's URL) or the OTEL_*/WARDEN_OTEL_* variables of the environment"
                            + " the resident starts in, then warden resident stop");
        }
        String counts = "live OpenTelemetry export to " + otlp.get("endpoint") + ": " + count(otlp.get("sent"))
                + " decision(s) sent, " + count(otlp.get("queued")) + " queued (of " + count(otlp.get("capacity"))
                + "), " + count(otlp.get("dropped")) + " dropped on a full queue, " + count(otlp.get("failed"))
                + " in batches the collector did not take";
        if (otlp.get("last_error") instanceof String error) {
            long at = otlp.get("last_error_at") instanceof Number n ? n.longValue() : 0;
            return Finding.problem(counts + "; last error " + age(System.currentTimeMillis() - at) + " ago: " + error,
                    "check the collector at " + otlp.get("endpoint") + " (OTEL_EXPORTER_OTLP_ENDPOINT)");
        }
        if (count(otlp.get("dropped")) > 0) {
            return Finding.problem(counts, "the collector is slower than the hooks; a closer or faster collector");
        }
        return Finding.ok(counts);
    }

    private static long count(Object o) {
        return o instanceof Number n ? n.longValue() : 0;
    }

    /** The class-data archive bin/warden would start the JVM with. */
    private static Section archive(WardenHome home, Map<String, String> env) {
        List<Finding> found = new ArrayList<>();
        Section section = new Section("start-up archive", found);
        Path jar;
        try {
            jar = Path.of(DoctorCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (Exception e) {
            jar = null;
        }
        if (home == null || jar == null || !Files.isRegularFile(jar)) {
            found.add(Finding.note("not checked: not running from an installed Warden's or a checkout's jar"));
            return section;
        }
        if ("1".equals(env.get("WARDEN_NO_ARCHIVE"))) {
            found.add(Finding.note("WARDEN_NO_ARCHIVE=1 here: the JVM starts without one"));
            return section;
        }
        try {
            StartupArchive archive = StartupArchive.of(home.archiveDir(env), jar);
            if (archive.state() == StartupArchive.State.CURRENT) {
                found.add(Finding.ok(archive.describe()));
            } else if (archive.state() == StartupArchive.State.MISSING
                    && Files.isDirectory(archive.archive().resolveSibling(".training-" + archive.archive().getFileName()
                    .toString().substring("warden-".length(), "warden-".length() + 16)))) {
                found.add(Finding.note(archive.describe() + " yet: it is being trained in the background"));
            } else {
                found.add(Finding.problem(archive.describe() + "; each event's JVM starts slower",
                        home.launcher() + " train-archive"));
            }
        } catch (IOException e) {
            found.add(Finding.note("not checked: " + e.getMessage()));
        }
        return section;
    }

    /** The last decisions and errors from the newest segment(s) of the decision log. */
    private record Recent(Section section, ArrayDeque<Map<String, Object>> decisions,
                          ArrayDeque<Map<String, Object>> errors) {
    }

    private Recent recent(String root) {
        List<Finding> found = new ArrayList<>();
        Section section = new Section("decision log: " + DecisionLog.dir(root), found);
        ArrayDeque<Map<String, Object>> last = new ArrayDeque<>();
        ArrayDeque<Map<String, Object>> errors = new ArrayDeque<>();
        DecisionReader reader = new DecisionReader(root);
        try {
            List<String> months = DecisionReader.months(root);
            if (months.isEmpty()) {
                found.add(Finding.note("no decisions recorded yet"));
                return new Recent(section, last, errors);
            }
            // the newest two segments: the last decisions, whatever day of the month it is
            reader.read(months.get(Math.max(0, months.size() - 2)), d -> {
                keep(last, d);
                if (isError(d)) {
                    keep(errors, d);
                }
            });
        } catch (IOException | RuntimeException e) {
            found.add(Finding.problem("cannot read the decision log: " + e.getMessage(),
                    "check " + DecisionLog.dir(root) + " (it must be a directory of this user's, not a link)"));
            return new Recent(section, last, errors);
        }
        found.add(Finding.ok("last " + last.size() + " decision(s) (all: `warden log`)"));
        if (reader.unreadable() > 0) {
            found.add(Finding.note(reader.unreadable() + " unreadable line(s) skipped"));
        }
        String since = clock.instant().minus(ERROR_WINDOW).toString();
        ErrorAck.Read acked = ErrorAck.read(Path.of(root));
        if (acked.problem() != null) {
            found.add(Finding.note(acked.problem()));
        }
        int recentErrors = 0;
        for (Map<String, Object> d : errors) {
            String ts = String.valueOf(d.get("ts"));
            boolean isAcked = ErrorAck.covers(acked.upTo(), ts);
            boolean fresh = ts.compareTo(since) >= 0 && !isAcked;
            recentErrors += fresh ? 1 : 0;
            String text = "error at " + d.get("ts") + " on " + d.get("host") + " " + d.get("native_event") + ": " + errorOf(d)
                    + (isAcked ? " (acknowledged)" : "");
            found.add(fresh ? Finding.problem(text, "warden log --since 24h shows them; fix the concern or setting named,"
                    + " then `warden doctor --ack`") : Finding.note(text));
        }
        if (errors.isEmpty()) {
            found.add(Finding.ok("no errors among the recent decisions"));
        } else if (recentErrors == 0) {
            found.add(Finding.note("no errors in the last " + ERROR_WINDOW.toHours() + " h"));
        }
        return new Recent(section, last, errors);
    }

    private static void keep(ArrayDeque<Map<String, Object>> q, Map<String, Object> d) {
        if (q.size() == RECENT) {
            q.removeFirst();
        }
        q.addLast(d);
    }

    /** A decision where something failed: a concern erred or timed out, Warden had a problem, or a fail mode decided. */
    static boolean isError(Map<String, Object> d) {
        if (d.get("problem") != null || d.get("fail_mode") != null) {
            return true;
        }
        if (d.get("concerns") instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Map<?, ?> c && ("error".equals(c.get("outcome")) || "timeout".equals(c.get("outcome")))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String errorOf(Map<String, Object> d) {
        List<String> parts = new ArrayList<>();
        if (d.get("concerns") instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Map<?, ?> c && ("error".equals(c.get("outcome")) || "timeout".equals(c.get("outcome")))) {
                    parts.add("concern " + c.get("name") + " " + c.get("outcome"));
                }
            }
        }
        if (d.get("problem") != null) {
            parts.add(String.valueOf(d.get("problem")));
        }
        if (d.get("fail_mode") != null) {
            parts.add("fail mode " + d.get("fail_mode") + " decided");
        }
        return String.join(", ", parts);
    }

    private static String shortName(String source, Path root) {
        Path p = Path.of(source);
        return p.isAbsolute() && p.startsWith(root) ? root.relativize(p).toString() : source;
    }

    /** {@code 4m 10s}, {@code 2h 5m}, {@code 3d 1h}. */
    static String age(long millis) {
        long s = Math.max(0, millis / 1000);
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return s / 60 + "m " + s % 60 + "s";
        }
        if (s < 86400) {
            return s / 3600 + "h " + s % 3600 / 60 + "m";
        }
        return s / 86400 + "d " + s % 86400 / 3600 + "h";
    }
}
