package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.testing.WardenProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * {@code warden doctor} through the packaged jar against real installs in a temporary project and
 * home: installed as install writes it, drifted from the manifest, pointing at a launcher that is
 * gone, with an untrusted manifest, and behind Codex's own hook trust. The start-up archive is
 * left out ({@code WARDEN_NO_ARCHIVE=1}): whether this checkout trained one is not the subject.
 */
@Execution(ExecutionMode.CONCURRENT)
class DoctorCommandIT {
    private static final String MANIFEST = """
            schema_version: 1
            concerns:
              no-verify: {script: builtin:block-no-verify, tools: [Bash]}
              note: {script: builtin:context-note, message: hi}
            platforms:
              claude:
                pre_tool_use: [no-verify]
                stop: [note]
              codex:
                pre_tool_use: [no-verify]
            native_event_aliases:
              claude: {PreToolUse: pre_tool_use, Stop: stop, SessionStart: session_start}
              codex: {PreToolUse: pre_tool_use, Stop: stop}
            """;

    /** The same manifest moved on: Edit joins Bash, Stop is no longer bound, SessionStart is. */
    private static final String DRIFTED = """
            schema_version: 1
            concerns:
              no-verify: {script: builtin:block-no-verify, tools: [Bash, Edit]}
              note: {script: builtin:context-note, message: hi}
            platforms:
              claude:
                pre_tool_use: [no-verify]
                session_start: [note]
            native_event_aliases:
              claude: {PreToolUse: pre_tool_use, Stop: stop, SessionStart: session_start}
            """;

    @TempDir
    Path tmp;

    private JarProject jar;
    private Path project;
    private Path home;

    @BeforeEach
    void dirs() throws Exception {
        // the committed (project-scope) entries run `warden` from PATH: this Warden's bin/ is on it
        jar = new JarProject(tmp, MANIFEST).with("PATH", WardenProcess.home().toAbsolutePath().resolve("bin") + ":"
                + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        project = jar.project;
        home = jar.home;
        jar.with("CODEX_HOME", home.resolve(".codex").toString()).with("WARDEN_NO_ARCHIVE", "1");
        CompiledHook.seed(tmp.resolve("cache")); // a local-scope install finds it built, as after an earlier install
    }

    @Test
    void doctor_installedAsInstallWrites_exitsZero() throws Exception {
        assertThat(warden("install", "--host", "claude", "--no-train").exitCode()).isZero();

        WardenProcess.Result r = warden("doctor", "--host", "claude", "--scope", "project");

        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isZero();
        assertThat(r.stdout()).contains("2 entries (PreToolUse, Stop), as `warden install` would write them now")
                .contains("in force: .warden/manifest.yaml").contains("lints clean").contains("trusted as it is now")
                .contains("resident server").contains("no decisions recorded yet").endsWith("all in order\n");
    }

    @Test
    void doctor_manifestMovedOnAfterInstall_namesEachDriftAndInstallFixesIt() throws Exception {
        assertThat(warden("install", "--host", "claude", "--no-train").exitCode()).isZero();
        Files.writeString(project.resolve(".warden/manifest.yaml"), DRIFTED);
        assertThat(warden("trust").exitCode()).isZero();

        WardenProcess.Result r = warden("doctor", "--host", "claude", "--scope", "project");

        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isEqualTo(1);
        assertThat(r.stdout()).contains("hooks.PreToolUse: matcher \"Bash\" misses Edit")
                .contains("an entry for Stop, which nothing in the manifest binds")
                .contains("no entry for SessionStart, which the manifest binds")
                .contains("3 problem(s):")
                .contains("fix: warden install --host claude --scope project --project-dir " + project);

        WardenProcess.Result install = warden("install", "--host", "claude", "--no-train");
        assertThat(install.stdout()).contains("PreToolUse  matcher=Bash|Edit  (changed: matcher \"Bash\" -> \"Bash|Edit\")")
                .contains("SessionStart  (added)").contains("Stop  (removed: the manifest binds it no longer)");
        assertThat(warden("doctor", "--host", "claude", "--scope", "project").exitCode()).isZero();
    }

    /**
     * Regression: doctor read an HTTP hook entry as a command and failed on its missing command line;
     * it now compares the HTTP install with what {@code install --transport http} writes and names
     * each event's transport.
     */
    @Test
    void doctor_httpTransportInstall_reportsTransportsAndExitsZero() throws Exception {
        WardenProcess.Result install = warden("install", "--host", "claude", "--transport", "http", "--no-train");
        assertThat(install.exitCode()).as(install.stdout() + install.stderr()).isZero();

        WardenProcess.Result r = warden("doctor", "--host", "claude", "--scope", "project");

        assertThat(r.stderr()).doesNotContain("Exception");
        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isZero();
        assertThat(r.stdout()).contains("transports: http: PreToolUse, Stop; command: SessionStart (starts the resident")
                .contains("3 entries (SessionStart, PreToolUse, Stop), as `warden install` would write them now");
    }

    @Test
    void doctor_httpEntriesWithoutTheirPortFile_isAProblemWithTheFix() throws Exception {
        assertThat(warden("install", "--host", "claude", "--transport", "http", "--no-train").exitCode()).isZero();
        Files.delete(tmp.resolve("cache/resident/http-hooks"));

        WardenProcess.Result r = warden("doctor", "--host", "claude", "--scope", "project");

        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isEqualTo(1);
        assertThat(r.stdout()).contains("entries send events over HTTP, but").contains("names no hook port")
                .contains("--transport http");
    }

    @Test
    void doctor_entriesRunALauncherThatIsGone_saysSoWithTheFix() throws Exception {
        assertThat(warden("install", "--host", "claude", "--scope", "local", "--no-train").exitCode()).isZero();
        Path settings = project.resolve(".claude/settings.local.json");
        String launcher = WardenProcess.home().toAbsolutePath().resolve("bin/warden").toString();
        Files.writeString(settings, Files.readString(settings).replace(launcher, "/gone/old-checkout/bin/warden"));

        WardenProcess.Result r = warden("doctor", "--host", "claude", "--scope", "local");

        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isEqualTo(1);
        assertThat(r.stdout()).contains("entries run /gone/old-checkout/bin/warden, which no longer exists")
                .contains("runs /gone/old-checkout/bin/warden, not this Warden's " + launcher)
                .contains("fix: warden install --host claude --scope local");
    }

    @Test
    void doctor_committedEntries_wardenNotOnPath_saysWhatToInstall() throws Exception {
        assertThat(warden("install", "--host", "claude", "--no-train").exitCode()).isZero();

        WardenProcess.Result r = jar.warden(Map.of("PATH", "/usr/bin:/bin"), "doctor", "--host", "claude", "--scope",
                "project");

        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isEqualTo(1);
        assertThat(r.stdout()).contains("entries run `warden` from PATH (committed settings), and it is not on PATH here")
                .contains("npm install -g agent-warden");
    }

    /**
     * Cursor's committed entries and Cline's committed hook files under {@code --if-missing allow}:
     * doctor reads the mode back (Cursor's stop entry is written alike in every mode, its
     * beforeShellExecution one is not) and finds no drift; Cline's files run {@code warden} from PATH
     * and doctor says whether it is there.
     */
    @Test
    void doctor_committedCursorEntriesAndClineFiles_portable_modeReadBack_onPathChecked() throws Exception {
        Files.writeString(project.resolve(".warden/manifest.yaml"), """
                schema_version: 1
                concerns:
                  note: {script: builtin:context-note, message: hi}
                platforms:
                  cursor:
                    stop: [note]
                    pre_tool_use: [note]
                  cline:
                    pre_tool_use: [note]
                native_event_aliases:
                  cursor: {stop: stop, beforeShellExecution: pre_tool_use}
                """);
        assertThat(warden("trust").exitCode()).isZero();
        assertThat(warden("install", "--host", "cursor", "--if-missing", "allow", "--no-train").exitCode()).isZero();
        assertThat(warden("install", "--host", "cline", "--if-missing", "allow", "--no-train").exitCode()).isZero();
        assertThat(Files.readString(project.resolve(".cursor/hooks.json"))).contains("command -v warden")
                .doesNotContain("/bin/warden");
        assertThat(Files.readString(project.resolve(".clinerules/hooks/PreToolUse"))).contains("--if-missing allow")
                .doesNotContain("/bin/warden");

        WardenProcess.Result cursor = warden("doctor", "--host", "cursor", "--scope", "project");
        WardenProcess.Result cline = jar.warden(Map.of("PATH", "/usr/bin:/bin"), "doctor", "--host", "cline", "--scope",
                "project");

        assertThat(cursor.stdout()).as(cursor.stdout()).contains("entries run `warden` from PATH, and it is on PATH here")
                .contains("as `warden install` would write them now").doesNotContain("PROBLEM");
        assertThat(cline.stdout()).as(cline.stdout())
                .contains("entries run `warden` from PATH (committed settings), and it is not on PATH here")
                .contains("(--if-missing allow)").contains("as `warden install` would write them now");
    }

    @Test
    void doctor_manifestChangedWithoutTrust_saysItIsNotInForce() throws Exception {
        assertThat(warden("install", "--host", "claude", "--no-train").exitCode()).isZero();
        Files.writeString(project.resolve(".warden/manifest.yaml"), MANIFEST + "# edited\n");

        WardenProcess.Result r = warden("doctor", "--host", "claude", "--scope", "project", "--json");

        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isEqualTo(1);
        Map<String, Object> json = Json.parseObject(r.stdout());
        assertThat(json.get("ok")).isEqualTo(false);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> problems = (List<Map<String, Object>>) json.get("problems");
        assertThat(problems).anySatisfy(p -> {
            assertThat(p.get("section")).isEqualTo("manifest");
            assertThat((String) p.get("problem")).contains("not trusted");
            assertThat((String) p.get("fix")).contains("warden trust");
        });
    }

    @Test
    void doctor_manifestWithLintError_namesTheError() throws Exception {
        Files.writeString(project.resolve(".warden/manifest.yaml"), MANIFEST.replace("builtin:block-no-verify", "builtin:nosuch"));

        WardenProcess.Result r = warden("doctor", "--host", "claude", "--scope", "project");

        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isEqualTo(1);
        assertThat(r.stdout()).contains("fix: warden manifest lint");
    }

    @Test
    void doctor_codexProjectNotTrustedByCodex_namesCodexsGate() throws Exception {
        Path codexHome = Files.createDirectories(home.resolve(".codex"));
        assertThat(warden("install", "--host", "codex", "--no-train").exitCode()).isZero();

        WardenProcess.Result r = warden("doctor", "--host", "codex", "--scope", "project");

        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isEqualTo(1);
        assertThat(r.stdout()).contains("Codex loads " + project.resolve(".codex/hooks.json") + " only in a trusted project")
                .contains("Codex has recorded no trust for the hooks in")
                .contains("open /hooks and trust Warden's entries");

        Path hooks = project.resolve(".codex/hooks.json");
        Path config = Files.writeString(codexHome.resolve("config.toml"), """
                [projects."%s"]
                trust_level = "trusted"

                [hooks.state."%s:pre_tool_use:0:0"]
                trusted_hash = "sha256:0000"
                """.formatted(project, hooks));
        Files.setLastModifiedTime(hooks, FileTime.fromMillis(Files.getLastModifiedTime(config).toMillis() - 10_000));
        WardenProcess.Result trusted = warden("doctor", "--host", "codex", "--scope", "project");
        assertThat(trusted.exitCode()).as(trusted.stdout()).isZero();
        assertThat(trusted.stdout()).contains("Codex records trust for 1 hook(s)");

        Files.setLastModifiedTime(hooks, FileTime.fromMillis(Files.getLastModifiedTime(config).toMillis() + 10_000));
        WardenProcess.Result changed = warden("doctor", "--host", "codex", "--scope", "project");
        assertThat(changed.exitCode()).isEqualTo(1);
        assertThat(changed.stdout()).contains("changed after Codex last recorded hook trust");
    }

    @Test
    void doctor_recentErrorInTheDecisionLog_isAProblem() throws Exception {
        assertThat(warden("install", "--host", "claude", "--no-train").exitCode()).isZero();
        WardenProcess.Result d = WardenProcess.run(List.of(), List.of("dispatch", "--host", "claude", "--native-event",
                "PreToolUse"), jar.env(), "not json".getBytes(), project);
        assertThat(d.exitCode()).isZero();

        WardenProcess.Result r = warden("doctor", "--host", "claude", "--scope", "project");

        assertThat(r.exitCode()).as(r.stdout()).isEqualTo(1);
        assertThat(r.stdout()).contains("last 1 decision(s)").contains("payload_not_json, fail mode open decided")
                .contains("fix: warden log --since 24h");
    }

    /** An error fixed and acknowledged no longer fails doctor (it stays listed as a note); a newer one does. */
    @Test
    void doctor_ackedError_isANoteAndExitZero_aNewerErrorFailsAgain() throws Exception {
        assertThat(warden("install", "--host", "claude", "--no-train").exitCode()).isZero();
        assertThat(badPayload().exitCode()).isZero();
        assertThat(warden("doctor", "--host", "claude", "--scope", "project").exitCode()).isEqualTo(1);

        WardenProcess.Result acked = warden("doctor", "--ack", "--host", "claude", "--scope", "project");

        assertThat(acked.exitCode()).as(acked.stdout()).isZero();
        assertThat(acked.stdout()).contains("payload_not_json").contains("(acknowledged)").endsWith("all in order\n");
        assertThat(project.resolve(".warden/state/doctor-ack")).isRegularFile();
        assertThat(warden("doctor", "--host", "claude", "--scope", "project").exitCode()).as("still acknowledged").isZero();

        assertThat(badPayload().exitCode()).isZero();
        WardenProcess.Result newer = warden("doctor", "--host", "claude", "--scope", "project");

        assertThat(newer.exitCode()).as(newer.stdout()).isEqualTo(1);
        assertThat(newer.stdout()).contains("(acknowledged)").contains("1 problem(s)");
    }

    /** Only installed hosts are listed by default, with one line for the others; --all lists every host. */
    @Test
    void doctor_default_listsInstalledHostsOnly_allListsEvery() throws Exception {
        assertThat(warden("install", "--host", "claude", "--no-train").exitCode()).isZero();

        WardenProcess.Result installedOnly = warden("doctor");
        WardenProcess.Result every = warden("doctor", "--all");

        int others = dev.agentwarden.host.Hosts.ids().size() - 1;
        assertThat(installedOnly.stdout()).contains("\nclaude project: ").doesNotContain("\ncodex project")
                .doesNotContain("not installed (`warden install")
                .contains(others + " other hosts not installed (`warden doctor --all` lists them)");
        assertThat(every.stdout()).contains("\nclaude project: ").contains("\ncodex project")
                .contains("not installed (`warden install --host codex").doesNotContain("other hosts not installed");
    }

    private WardenProcess.Result badPayload() throws Exception {
        return WardenProcess.run(List.of(), List.of("dispatch", "--host", "claude", "--native-event", "PreToolUse"),
                jar.env(), "not json".getBytes(), project);
    }

    private WardenProcess.Result warden(String... args) throws Exception {
        return jar.warden(args);
    }
}
