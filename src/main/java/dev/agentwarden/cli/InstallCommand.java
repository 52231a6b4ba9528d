package dev.agentwarden.cli;

import dev.agentwarden.event.EventName;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.host.SettingsFile;
import dev.agentwarden.host.claude.ClaudeSettings;
import dev.agentwarden.host.claude.InstallReport;
import dev.agentwarden.io.CacheDir;
import dev.agentwarden.concern.ConcernSpec;
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
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code warden install --host claude|cowork|codex}: writes Warden's hook entries into Claude Code's
 * settings (or Codex's {@code hooks.json}, the same {@code hooks} shape), then trains the
 * class-data archive for the JVM the launcher will use.
 *
 * <p>Project scope binds the native events the manifest in force gives a chain, with a tool
 * matcher narrowed to the chain's tools where every concern names its tools (fewer JVM starts).
 * User scope (the only one Cowork honours) binds every aliased event with matcher "*", since
 * each project may bring its own manifest.
 */
@Command(name = "install", description = "Install Warden's hooks into a host's settings.")
final class InstallCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--host", required = true, description = "claude, cowork or codex.")
    String host;

    @Option(names = "--scope", description = "project (.claude/settings.json, .codex/hooks.json) or user (~/.claude/settings.json, $CODEX_HOME/hooks.json).")
    String scope;

    @Option(names = "--dry-run", description = "Print the settings that would be written; change nothing.")
    boolean dryRun;

    @Mixin
    CwdProjectOption project;

    @Option(names = "--manifest", description = "Manifest whose bindings to install (default: the one in force).")
    String manifestFile;

    @Option(names = "--no-train", description = "Skip training the start-up archive.")
    boolean noTrain;

    @Option(names = "--fast-hook", description = "Run hooks through the compiled C client (needs cc; see README"
            + " \"Compiled hook\"). Off by default: a deleted cache leaves hooks the host skips.")
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
        Manifest manifest = ManifestLoader.load(ManifestLoader.locate(manifestFile, target.root().toString()), System.getenv());
        List<ClaudeSettings.Binding> bindings = bindings(manifest, target.host(), target.user());
        HttpInstall http = null;
        if (!"command".equals(transport)) {
            http = HttpInstall.prepare(transport, target.host(), manifest, bindings, err);
            if (http == null) {
                return ExitCode.UNREADABLE.code();
            }
            bindings = http.bindings();
        }
        if (bindings.isEmpty()) {
            err.println("warden install: " + nothingBound(manifest, target.host()) + "; nothing installed");
            return ExitCode.FINDINGS.code();
        }
        Path home = DemoCommand.home();
        Path launcher = home == null ? null : home.resolve("bin/warden");
        if (launcher == null || !Files.isExecutable(launcher)) {
            err.println("warden install: cannot find bin/warden (run it as bin/warden install from a Warden checkout)");
            return ExitCode.UNREADABLE.code();
        }
        SettingsFile file = target.settingsFile();
        // With --fast-hook the hook runs the compiled client where one can be built (FastHook), else bin/warden.
        String hookLauncher = dryRun || !fastHook ? launcher.toString() : FastHook.build(launcher, out);
        List<ClaudeSettings.Binding> written = bindings;
        byte[][] before = new byte[1][];
        SettingsFile.Edit edit = doc -> ClaudeSettings.install(before[0] = doc, hookLauncher, target.host(), written);
        byte[] after;
        try {
            if (dryRun) {
                after = file.preview(edit);
                out.println("# would write " + file.describe());
                out.print(new String(after, StandardCharsets.UTF_8));
                return ExitCode.OK.code();
            }
            after = file.update(edit);
            out.println("installed " + bindings.size() + " hook(s) for " + target.host() + " in " + file.describe() + ":");
        } catch (SettingsFile.SettingsException e) {
            err.println("warden install: " + e.getMessage() + " [" + e.code() + "]");
            return ExitCode.UNREADABLE.code();
        }
        List<ClaudeSettings.Entry> entries = ClaudeSettings.wardenEntries(after, target.host());
        InstallReport.between(ClaudeSettings.wardenEntries(before[0], target.host()), entries).perEntry(entries)
                .forEach(line -> out.println("  " + line));
        Target.reportLookalikes(after, target.host(), out);
        if (http != null) {
            http.report(out);
        }
        if (manifestFile == null) {
            out.println(TrustCommand.onInstall(target.root(), System.getenv(), Clock.systemUTC()));
        }
        if (!noTrain) {
            out.println(trainArchive(launcher));
        }
        out.println("the first hook starts a resident Warden server (stops after 30 min idle) that later hooks hand"
                + " events to; WARDEN_RESIDENT=off in the host's environment keeps one JVM per event");
        return ExitCode.OK.code();
    }

    /** Why a manifest gives {@code host} no hook to install, in words that say what to add. */
    static String nothingBound(Manifest manifest, String host) {
        String why;
        if (manifest.aliases().getOrDefault(host, Map.of()).isEmpty()) {
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
    static List<ClaudeSettings.Binding> bindings(Manifest manifest, String host, boolean allEvents) {
        Map<String, EventName> aliases = manifest.aliases().getOrDefault(host, Map.of());
        List<String> events = allEvents ? new ArrayList<>(new TreeSet<>(aliases.keySet())) : manifest.boundNativeEvents(host);
        List<ClaudeSettings.Binding> out = new ArrayList<>();
        for (String nativeEvent : events) {
            String matcher = null;
            if (isToolEvent(nativeEvent)) {
                matcher = "*";
                if (!allEvents) {
                    List<ConcernSpec> chain = manifest.chain(host, aliases.get(nativeEvent), Manifest.DEFAULT_ROLE);
                    if (!chain.isEmpty() && chain.stream().allMatch(c -> !c.tools().isEmpty() && !c.tools().contains("*"))) {
                        TreeSet<String> tools = new TreeSet<>();
                        chain.forEach(c -> tools.addAll(c.tools()));
                        if (tools.stream().allMatch(t -> t.matches("[A-Za-z0-9_-]+"))) {
                            matcher = String.join("|", tools);
                        }
                    }
                }
            }
            out.add(new ClaudeSettings.Binding(nativeEvent, matcher));
        }
        return out;
    }

    private static boolean isToolEvent(String nativeEvent) {
        return nativeEvent.equals("PreToolUse") || nativeEvent.equals("PostToolUse")
                || nativeEvent.equals("PostToolUseFailure") || nativeEvent.equals("PermissionRequest");
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
    record Target(String host, boolean user, Path settings, Path root) {
        static Target resolve(String host, String scope, Path root, PrintWriter err) {
            if (Hosts.unknown(host) != null) {
                err.println("warden: " + Hosts.unknown(host));
                return null;
            }
            if (!host.equals("claude") && !host.equals("cowork") && !host.equals("codex")) {
                err.println("warden: --host must be claude, cowork or codex (other hosts are not installable yet)");
                return null;
            }
            if (scope != null && !scope.equals("project") && !scope.equals("user")) {
                err.println("warden: --scope must be project or user, not '" + scope + "'");
                return null;
            }
            boolean user = "user".equals(scope);
            if (host.equals("cowork")) {
                if ("project".equals(scope)) {
                    err.println("warden: Cowork honours only user settings (~/.claude/settings.json); use --scope user");
                    return null;
                }
                user = true;
            }
            Path settings;
            if (host.equals("codex")) {
                settings = user ? codexHome().resolve("hooks.json") : root.resolve(".codex/hooks.json");
            } else {
                settings = user ? userHome().resolve(".claude/settings.json") : root.resolve(".claude/settings.json");
            }
            return new Target(host, user, settings, root);
        }

        /**
         * The settings file, locked in Warden's cache directory; a project's must resolve inside the
         * project (links included), a user's may lead anywhere (dotfiles).
         */
        SettingsFile settingsFile() {
            return new SettingsFile(settings, CacheDir.root(System.getenv()).resolve("locks"), user ? null : root);
        }

        /** Notes the entries that run Warden but are not exactly Warden's, which install and uninstall leave. */
        static void reportLookalikes(byte[] settings, String host, PrintWriter out) {
            for (String kept : ClaudeSettings.lookalikes(settings, host)) {
                out.println("  kept " + kept);
                out.println("    (not exactly the entry Warden writes, so it is yours: left as written; remove it by hand if"
                        + " Warden's own entry replaces it)");
            }
        }

        /** Codex's home: {@code $CODEX_HOME}, else {@code ~/.codex}. */
        static Path codexHome() {
            String codexHome = System.getenv("CODEX_HOME");
            return codexHome != null && !codexHome.isEmpty() ? Path.of(codexHome) : userHome().resolve(".codex");
        }

        /** {@code $HOME} first (as the host sees it), then the JVM's idea of the home directory. */
        static Path userHome() {
            String home = System.getenv("HOME");
            return Path.of(home != null && !home.isEmpty() ? home : System.getProperty("user.home"));
        }
    }
}
