package dev.agentwarden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.testing.WardenProcess;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The release as a user gets it (issue 25): {@code target/dist/agent-warden-<version>.tgz} installed with
 * {@code npm install -g --prefix <scratch>} and {@code warden-<version>-linux-x64.tar.gz} unpacked into
 * another scratch directory, then run with no JDK and no Maven to be found: {@code PATH} starts with a
 * directory whose {@code java} and {@code mvn} fail loudly and leave a mark, and {@code JAVA_HOME} names a
 * JDK whose {@code java} does the same, then the npm prefix's bin and {@code /usr/bin:/bin}. Whatever runs,
 * it must be the release's own runtime.
 *
 * <p>In order, in one scratch project: {@code warden version}; {@code warden install --host claude} (which
 * trains the start-up archive); {@code warden init} plus a rule refusing {@code rm -rf /} and
 * {@code warden trust}; the installed PreToolUse hook commands (project scope, and user scope, which runs the
 * compiled client the release ships) run on a captured Claude Code payload
 * whose command is {@code rm -rf /} (denied); {@code warden doctor}, which finds the archive the launcher
 * trained; the tarball's {@code bin/warden} doing the same dispatch; and one real Claude Code session
 * against the installed copy, whose Bash call Warden denies and which does not run.
 *
 * <p>Skips, loudly, only when {@code target/dist} is absent (the build ran with
 * {@code -Dwarden.dist.skip=true}); a {@code target/dist} without both artifacts fails.
 */
@Tag("e2e")
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock("ReleaseInstallE2EIT")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReleaseInstallE2EIT {
    private static final E2eSummary SUMMARY = new E2eSummary();
    private static final String HOST = "release";
    private static final Duration LIMIT = Duration.ofMinutes(3);
    private static final String DENY_REASON = "RM-ROOT-25: rm -rf / would erase the machine";

    @TempDir
    static Path scratch;

    private static String unavailable;
    private static String version;
    private static String commit;
    /** The npm prefix's {@code bin/warden}: npm's link to the installed launcher. */
    private static Path npmWarden;
    /** The installed package's directory, {@code <prefix>/lib/node_modules/agent-warden}. */
    private static Path npmPackage;
    /** The tarball's {@code warden-<version>/}. */
    private static Path unpacked;
    private static Path home;
    private static Path project;
    /** Where the decoy java and mvn write when something runs them. */
    private static Path decoyMarks;
    private static Path decoys;

    @BeforeAll
    static void installBothArtifacts() throws IOException {
        Path dist = HostSuite.wardenHome().resolve("target/dist");
        Properties build = new Properties();
        try (InputStream in = ReleaseInstallE2EIT.class.getResourceAsStream("/dev/agentwarden/build.properties")) {
            build.load(in);
        }
        version = build.getProperty("version");
        commit = build.getProperty("commit");
        if (!Files.isDirectory(dist)) {
            unavailable = dist + " is absent: this build skipped the release (-Dwarden.dist.skip=true); mvn -B package builds it";
            String banner = "#".repeat(100);
            System.out.println(banner + "\n# E2E SKIPPED: " + unavailable + "\n" + banner);
            System.err.println(banner + "\n# E2E SKIPPED: " + unavailable + "\n" + banner);
            SUMMARY.note("SKIPPED: " + unavailable);
            return;
        }
        Path tarball = dist.resolve("warden-" + version + "-linux-x64.tar.gz");
        Path tgz = dist.resolve("agent-warden-" + version + ".tgz");
        assertThat(tarball).as("the release tarball beside " + dist).isRegularFile();
        assertThat(tgz).as("the npm package beside " + dist).isRegularFile();
        SUMMARY.note("artifacts: " + tarball.getFileName() + " " + Files.size(tarball) / 1024 + " KiB, "
                + tgz.getFileName() + " " + Files.size(tgz) / 1024 + " KiB");

        Path tarDir = Files.createDirectories(scratch.resolve("tar"));
        Command.Result untar = Command.run(List.of("tar", "-xzf", tarball.toString(), "-C", tarDir.toString()), scratch,
                null, LIMIT);
        assertThat(untar.ok()).as("tar -xzf: " + untar.tail()).isTrue();
        unpacked = tarDir.resolve("warden-" + version);

        Path prefix = scratch.resolve("npm");
        Map<String, String> npmEnv = new LinkedHashMap<>(System.getenv());
        npmEnv.put("npm_config_cache", scratch.resolve("npm-cache").toString());
        Command.Result npm = Command.run(List.of("npm", "install", "-g", "--prefix", prefix.toString(), "--no-audit",
                "--no-fund", "--loglevel=error", tgz.toString()), scratch, npmEnv, LIMIT);
        assertThat(npm.ok()).as("npm install -g " + tgz + ": " + npm.tail()).isTrue();
        npmWarden = prefix.resolve("bin/warden");
        npmPackage = prefix.resolve("lib/node_modules/agent-warden");
        assertThat(Files.isSymbolicLink(npmWarden)).as("npm links warden into its bin").isTrue();

        home = Files.createDirectories(scratch.resolve("home"));
        project = Files.createDirectories(scratch.resolve("project"));
        decoyMarks = scratch.resolve("decoy-marks");
        decoys = Files.createDirectories(scratch.resolve("decoys/bin"));
        for (String tool : List.of("java", "mvn")) {
            Path decoy = decoys.resolve(tool);
            Files.writeString(decoy, "#!/bin/sh\necho \"" + tool + " $*\" >> " + decoyMarks + "\necho 'decoy " + tool
                    + " ran' >&2\nexit 97\n", StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(decoy, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    /**
     * The environment of a user without a JDK or Maven: the decoys first on PATH and as JAVA_HOME,
     * then the npm prefix's bin, then the system's.
     */
    private static Map<String, String> userEnv() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", decoys + File.pathSeparator + npmWarden.getParent() + ":/usr/bin:/bin");
        env.put("JAVA_HOME", decoys.getParent().toString());
        env.put("HOME", home.toString());
        env.put("LANG", "C.UTF-8");
        // Each event in its own JVM: no resident outlives the test.
        env.put("WARDEN_RESIDENT", "off");
        return env;
    }

    /** {@code sh -c SCRIPT} as the user, in the project, with {@code stdin} from a file when given. */
    private static Command.Result shell(String script, Path stdin) throws IOException {
        String withInput = stdin == null ? script : "exec < '" + stdin + "'; " + script;
        return Command.run(List.of("sh", "-c", withInput), project, userEnv(), LIMIT);
    }

    private static void assertNoDecoyRan() throws IOException {
        assertThat(Files.exists(decoyMarks) ? Files.readString(decoyMarks) : "")
                .as("a java or mvn outside the release ran").isEmpty();
    }

    private static void requireDist(E2eSummary.Row row) {
        if (unavailable != null) {
            row.skip(unavailable);
            Assumptions.abort(unavailable);
        }
    }

    @AfterAll
    static void printSummary() {
        System.out.println(SUMMARY.render());
    }

    @Test
    @Order(1)
    void version_fromPath_throughNpmsLink_onTheBundledRuntime() throws IOException {
        E2eSummary.Row row = SUMMARY.row(HOST, "warden version (npm install -g)",
                "`warden version` and `--version` print version and commit; no java or mvn but the release's ran");
        requireDist(row);
        Command.Result which = shell("command -v warden", null);
        assertThat(which.stdout().strip()).as("warden on PATH").isEqualTo(npmWarden.toString());
        Command.Result v = shell("warden version", null);
        Command.Result dashed = shell("warden --version", null);
        row.observed(v.stdout().strip());
        String expected = "warden " + version + " (commit " + commit + ")";
        assertThat(v.exitCode()).as(v.tail()).isZero();
        assertThat(v.stdout().strip()).isEqualTo(expected);
        assertThat(dashed.stdout().strip()).isEqualTo(expected);
        assertNoDecoyRan();
        row.pass();
    }

    @Test
    @Order(2)
    void installHostClaude_writesHooks_andTrainsTheArchive() throws IOException {
        E2eSummary.Row row = SUMMARY.row(HOST, "warden install --host claude",
                "hooks written into .claude/settings.json; start-up archive trained under ~/.cache; no JDK or Maven");
        requireDist(row);
        Command.Result install = shell("warden install --host claude", null);
        row.observed("exit " + install.exitCode() + "; " + lineWith(install.stdout(), "start-up archive"));
        assertThat(install.exitCode()).as(install.stdout() + install.stderr()).isZero();
        assertThat(preToolUseCommand(project.resolve(".claude/settings.json"))).as("the PreToolUse hook install wrote")
                .isNotNull();
        assertThat(install.stdout()).contains("start-up archive: trained " + home.resolve(".cache/agent-warden/cds"));
        // user scope keeps the compiled client: the one the release ships, no compiler needed
        Command.Result user = shell("warden install --host claude --scope user --no-train", null);
        assertThat(user.exitCode()).as(user.stdout() + user.stderr()).isZero();
        dev.agentwarden.install.HookCommand.Fast fast = dev.agentwarden.install.claude.ClaudeSettings.fastParts(
                preToolUseCommand(home.resolve(".claude/settings.json")));
        assertThat(fast).as("a compiled client behind [ -x ], bin/warden behind it").isNotNull();
        assertThat(fast.hook()).isEqualTo(npmPackage.toRealPath().resolve("lib/hook/bin/warden").toString());
        assertThat(fast.launcher()).isEqualTo(npmPackage.toRealPath().resolve("bin/warden").toString());
        assertThat(project.resolve("target")).as("nothing built in the project").doesNotExist();
        assertNoDecoyRan();
        row.pass();
    }

    @Test
    @Order(3)
    void initARuleAndTrust_thenTheInstalledHookDeniesRmRfRoot() throws IOException {
        E2eSummary.Row row = SUMMARY.row(HOST, "init, a rule, trust; hook on a captured rm -rf / payload",
                "the installed PreToolUse hook command answers deny with the rule's reason");
        requireDist(row);
        Command.Result init = shell("warden init", null);
        assertThat(init.exitCode()).as(init.stdout() + init.stderr()).isZero();
        Path manifest = project.resolve(".warden/manifest.yaml");
        String text = Files.readString(manifest, StandardCharsets.UTF_8);
        assertThat(text).contains("concerns:\n").contains("pre_tool_use: [block-no-verify, protect-warden, spawn-guard, no-curl-pipe-sh]");
        text = text.replace("concerns:\n", "concerns:\n" + RM_ROOT_RULE)
                .replace("pre_tool_use: [block-no-verify, protect-warden, spawn-guard, no-curl-pipe-sh]",
                        "pre_tool_use: [block-no-verify, protect-warden, spawn-guard, no-curl-pipe-sh, no-rm-rf-root]");
        Files.writeString(manifest, text, StandardCharsets.UTF_8);
        Command.Result trust = shell("warden trust", null);
        assertThat(trust.exitCode()).as(trust.stdout() + trust.stderr()).isZero();

        Path payload = rmRfRootPayload();
        // as Claude Code runs it: sh -c with the project's directory in the environment
        String asClaude = "export CLAUDE_PROJECT_DIR='" + project + "'; ";
        Command.Result hook = shell(asClaude + preToolUseCommand(project.resolve(".claude/settings.json")), payload);
        row.observed("exit " + hook.exitCode() + "; stdout " + hook.stdout().strip());
        assertThat(hook.exitCode()).as(hook.stderr()).isZero();
        assertThat(Json.parseObject(hook.stdout().strip()).get("hookSpecificOutput")).asString()
                .contains("permissionDecision=deny").contains(DENY_REASON);
        // the shipped compiled client (user scope), twice: the first event writes its one-event JVM plan, the second runs it
        String userHook = preToolUseCommand(home.resolve(".claude/settings.json"));
        for (int i = 0; i < 2; i++) {
            Command.Result fast = shell(asClaude + userHook, payload);
            assertThat(fast.exitCode()).as(fast.stderr()).isZero();
            assertThat(fast.stdout()).as("the compiled client's answer").isEqualTo(hook.stdout());
        }
        assertNoDecoyRan();
        row.pass();
    }

    @Test
    @Order(4)
    void doctor_findsTheArchiveTheLauncherTrained() throws IOException {
        E2eSummary.Row row = SUMMARY.row(HOST, "warden doctor after install",
                "the start-up archive section is ok (the launcher's .static.jsa name), the hooks as install writes them");
        requireDist(row);
        Command.Result doctor = shell("warden doctor --host claude --scope project", null);
        row.observed("exit " + doctor.exitCode() + "; " + lineWith(doctor.stdout(), "start-up archive "));
        assertThat(doctor.stdout()).contains("ok      start-up archive " + home.resolve(".cache/agent-warden/cds"))
                .contains(".static.jsa: present and current");
        assertThat(doctor.exitCode()).as(doctor.stdout()).isZero();
        assertNoDecoyRan();
        row.pass();
    }

    @Test
    @Order(5)
    void readmeQuickStart_onTheInstalledCopy_everyCommandSucceeds(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(HOST, "the README's quick start",
                "every command of the quick start succeeds with the npm-installed warden and no JDK or Maven");
        requireDist(row);
        Map<String, String> env = new LinkedHashMap<>(userEnv());
        env.remove("HOME");
        String out = dev.agentwarden.docs.ReadmeQuickStartIT.runQuickStart(dir, WardenProcess.home().resolve("README.md"),
                npmWarden.getParent(), env);
        row.observed(lineWith(out, "passed"));
        assertThat(out).contains("force push refused").contains("plain push allowed");
        assertNoDecoyRan();
        row.pass();
    }

    @Test
    @Order(6)
    void tarball_unpackedAnywhere_deniesTheSameEvent() throws IOException {
        E2eSummary.Row row = SUMMARY.row(HOST, "tarball: bin/warden version and dispatch",
                "the unpacked bin/warden prints the version and denies rm -rf / on its own runtime");
        requireDist(row);
        Command.Result v = shell("'" + unpacked.resolve("bin/warden") + "' version", null);
        assertThat(v.stdout().strip()).isEqualTo("warden " + version + " (commit " + commit + ")");
        Command.Result dispatch = shell("'" + unpacked.resolve("bin/warden")
                + "' dispatch --host claude --native-event PreToolUse", rmRfRootPayload());
        row.observed("exit " + dispatch.exitCode() + "; stdout " + dispatch.stdout().strip());
        assertThat(dispatch.exitCode()).as(dispatch.stderr()).isZero();
        assertThat(dispatch.stdout()).contains("\"permissionDecision\":\"deny\"").contains(DENY_REASON);
        assertNoDecoyRan();
        row.pass();
    }

    @Test
    @Order(7)
    void realClaudeCode_onTheInstalledCopy_deniedBashDoesNotRun(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(HOST, "real Claude Code, hooks from the npm install",
                "next request: error tool_result with Warden's reason; command not run; no JDK or Maven used");
        requireDist(row);
        HostInstall.Outcome claudeCode = HostInstall.ensureOrAnnounce(HostInstall.CLAUDE_CODE, "Claude Code", SUMMARY);
        if (!claudeCode.available()) {
            row.skip(claudeCode.unavailable());
            Assumptions.abort(claudeCode.unavailable());
        }
        ClaudeCodeFacts facts = ClaudeCodeFacts.of(claudeCode.version());
        LoopbackSandbox sandbox = LoopbackSandbox.probe(Files.createDirectories(scratch.resolve("sandbox")));
        SUMMARY.note("network: " + sandbox.description());
        ClaudeCodeSession claude = new ClaudeCodeSession(claudeCode.binary(), sandbox, scratch.resolve("claude-cache"));
        E2eProject session = E2eProject.create(Files.createDirectories(dir.resolve("claude")).toRealPath());
        session.manifest(E2eProject.manifestText("claude", """
                no-denied-marker:
                  script: builtin:deny-pattern
                  posture: blocking
                  tools: [Bash]
                  patterns:
                    - match: 'touch denied-marker'
                      reason: "DENY-25r: denied-marker is off limits"
                """, "pre_tool_use: [no-denied-marker]\n", "PreToolUse"));
        session.allowBash("touch denied-marker");
        Map<String, String> noJdk = Map.of("PATH", userEnv().get("PATH"), "JAVA_HOME", userEnv().get("JAVA_HOME"));
        Map<String, String> installEnv = new LinkedHashMap<>(claude.baseEnv());
        installEnv.putAll(noJdk);
        Command.Result install = session.installWarden(npmWarden, installEnv);
        assertThat(install.exitCode()).as("warden install: " + install.stdout() + install.stderr()).isZero();

        ClaudeRun run;
        try (ScriptedModelServer server = ScriptedModelServer.start(new AnthropicMessagesApi(), ModelScript.of(
                Turn.tool("denied", "Bash", Map.of("command", "touch denied-marker", "description", "touch marker")),
                Turn.text("FINAL: done")))) {
            run = claude.run(session, server, "touch the marker", noJdk, List.of());
        }
        row.timing(run);
        Optional<ClaudeRun.ToolResultSeen> result = run.toolResult("denied");
        row.observed(result.map(ClaudeRun.ToolResultSeen::describe).orElse("no tool_result")
                + "; marker " + (session.exists("denied-marker") ? "CREATED" : "absent"));
        assertThat(run.completed()).as(run.describe()).isTrue();
        assertThat(result).as("tool_result for the denied call").hasValueSatisfying(r -> {
            assertThat(r.isError()).isTrue();
            assertThat(r.content()).isEqualTo(facts.deniedToolResult("Bash", "[warden] DENY-25r: denied-marker is off limits"));
        });
        assertThat(session.exists("denied-marker")).as("the denied command ran").isFalse();
        assertNoDecoyRan();
        row.pass();
    }

    /** The rule the quick start adds: a built-in deny-pattern concern, so nothing of the repository runs. */
    private static final String RM_ROOT_RULE = """
              no-rm-rf-root:
                script: builtin:deny-pattern
                posture: blocking
                tools: [Bash]
                patterns:
                  - match: 'rm -rf /'
                    reason: "RM-ROOT-25: rm -rf / would erase the machine"
            """;

    /** A PreToolUse payload Claude Code sent (captured), its command made {@code rm -rf /} and its cwd this project. */
    private static Path rmRfRootPayload() throws IOException {
        Path captured = Path.of("/work/shared/testdata/hosts/claude-code-2.1.332/deny-03-PreToolUse.json");
        Map<String, Object> payload = Files.isRegularFile(captured)
                ? Json.parseObject(Files.readString(captured, StandardCharsets.UTF_8)) : new LinkedHashMap<>(Map.of(
                        "session_id", "s-25", "hook_event_name", "PreToolUse", "tool_name", "Bash"));
        payload.put("cwd", project.toString());
        payload.put("tool_input", Map.of("command", "rm -rf /", "description", "Erase everything"));
        Path file = scratch.resolve("rm-rf-root.json");
        Files.writeString(file, Json.write(payload), StandardCharsets.UTF_8);
        return file;
    }

    /** The command of the PreToolUse hook in a Claude Code {@code settings.json}, or null. */
    private static String preToolUseCommand(Path settings) throws IOException {
        if (!Files.isRegularFile(settings)) {
            return null;
        }
        Map<String, Object> json = Json.parseObject(Files.readString(settings, StandardCharsets.UTF_8));
        if (json.get("hooks") instanceof Map<?, ?> hooks && hooks.get("PreToolUse") instanceof List<?> groups) {
            for (Object g : groups) {
                if (g instanceof Map<?, ?> group && group.get("hooks") instanceof List<?> list) {
                    for (Object h : list) {
                        if (h instanceof Map<?, ?> hook && hook.get("command") instanceof String c && c.contains("dispatch")) {
                            return c;
                        }
                    }
                }
            }
        }
        return null;
    }

    private static String lineWith(String text, String fragment) {
        return text.lines().filter(l -> l.contains(fragment)).findFirst().orElse("(no line with " + fragment + ")").strip();
    }
}
