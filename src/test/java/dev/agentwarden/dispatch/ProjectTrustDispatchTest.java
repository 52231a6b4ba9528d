package dev.agentwarden.dispatch;

import dev.agentwarden.testing.WardenProcess;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.manifest.ManifestLoader;
import dev.agentwarden.testing.InProcessDispatch;
import dev.agentwarden.testing.MutableClock;
import dev.agentwarden.testing.TestTrust;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10 items 3 and 4 through the real dispatch path: a cloned project's manifest and scripts
 * take effect only as the user trusted them, and a compiled manifest someone else could write is
 * never loaded. Whether a process concern ran is read off the marker file it leaves.
 */
class ProjectTrustDispatchTest {
    private static final String NO_VERIFY = bash("git commit --no-verify -m x");
    private static final String DENIED_BY_PROJECT = bash("touch project-marker");

    @TempDir
    Path tmp;

    private Path project;
    private Path cache;
    private InProcessDispatch dispatch;

    @BeforeEach
    void setUp() throws IOException {
        project = Files.createDirectories(tmp.resolve("project")).toRealPath();
        cache = tmp.resolve("cache");
        dispatch = new InProcessDispatch(cache, MutableClock.at("2026-12-01T09:00:00Z"),
                Map.of("CLAUDE_PROJECT_DIR", project.toString()));
    }

    /** A project manifest: a deny-pattern on "touch project-marker" and a process concern leaving {@code ran-<tag>}. */
    private void manifest(String extraConcern, boolean failClosed) throws IOException {
        Files.createDirectories(project.resolve(".warden"));
        Files.writeString(project.resolve(".warden/manifest.yaml"), """
                schema_version: 1
                concerns:
                  project-deny:
                    script: builtin:deny-pattern
                    posture: blocking
                    tools: [Bash]
                    patterns:
                      - match: 'touch project-marker'
                        reason: "PROJECT-DENY"
                  runner:
                    script: .warden/concerns/run.sh
                    posture: blocking
                    fail_closed: %s
                %s
                platforms:
                  claude:
                    pre_tool_use: [project-deny, runner]
                native_event_aliases:
                  claude:
                    PreToolUse: pre_tool_use
                """.formatted(failClosed, extraConcern.indent(2)));
    }

    private void script(String tag) throws IOException {
        Path s = Files.createDirectories(project.resolve(".warden/concerns")).resolve("run.sh");
        WardenProcess.writeScript(s, "#!/bin/sh\n: > ran-" + tag + "\nexit 0\n", "rwxr-xr-x");
    }

    private static String bash(String command) {
        return Json.write(Map.of("session_id", "s", "hook_event_name", "PreToolUse", "tool_name", "Bash",
                "tool_input", Map.of("command", command)));
    }

    private boolean ran(String tag) {
        return Files.exists(project.resolve("ran-" + tag));
    }

    @Test
    void dispatch_untrustedClonedProjectManifest_scriptDoesNotRunAndDefaultStaysInForce() throws IOException {
        script("clone");
        manifest("", false);

        InProcessDispatch.Response r = dispatch.run("claude", NO_VERIFY);

        assertThat(ran("clone")).as("the cloned repository's script ran").isFalse();
        assertThat(r.stdout()).as("the default's block-no-verify").contains("\"permissionDecision\":\"deny\"");
        assertThat(r.stderr()).contains("warden: .warden/manifest.yaml is not trusted (run `warden trust` in "
                + project + "); using the default manifest");
        assertThat(dispatch.run("claude", DENIED_BY_PROJECT).stdout()).as("the project's policy is not in force").isEmpty();
    }

    @Test
    void dispatch_trustedProjectManifest_runsAsWrittenWithoutNote() throws IOException {
        script("trusted");
        manifest("", false);
        dispatch.trust(project);

        InProcessDispatch.Response r = dispatch.run("claude", DENIED_BY_PROJECT);

        assertThat(r.stdout()).contains("PROJECT-DENY");
        assertThat(r.stderr()).isEmpty();
        dispatch.run("claude", bash("ls"));
        assertThat(ran("trusted")).isTrue();
    }

    @Test
    void dispatch_manifestEditedAfterTrust_lastTrustedStaysInForce() throws IOException {
        script("trusted");
        manifest("", false);
        dispatch.trust(project);
        // the governed agent switches the policy off
        Files.writeString(project.resolve(".warden/manifest.yaml"), "schema_version: 1\nconcerns: {}\nplatforms: {}\n");

        InProcessDispatch.Response r = dispatch.run("claude", DENIED_BY_PROJECT);

        assertThat(r.stdout()).contains("PROJECT-DENY");
        assertThat(r.stderr()).contains(".warden/manifest.yaml is not trusted (run `warden trust` in " + project
                + "); using the last trusted version (trusted 2026-01-01T00:00:00Z)");
    }

    @Test
    void dispatch_manifestDeletedAfterTrust_lastTrustedStaysInForce() throws IOException {
        script("trusted");
        manifest("", false);
        dispatch.trust(project);
        Files.delete(project.resolve(".warden/manifest.yaml"));

        InProcessDispatch.Response r = dispatch.run("claude", DENIED_BY_PROJECT);

        assertThat(r.stdout()).contains("PROJECT-DENY");
        assertThat(r.stderr()).contains(".warden/manifest.yaml is gone but was trusted (run `warden trust --revoke` in "
                + project + " to drop it); using the last trusted version");
    }

    @Test
    void dispatch_scriptEditedAfterTrust_doesNotRun_failOpenAllowsWithNote() throws IOException {
        script("trusted");
        manifest("", false);
        dispatch.trust(project);
        script("edited");

        InProcessDispatch.Response r = dispatch.run("claude", bash("ls"));

        assertThat(ran("edited")).as("the edited script ran").isFalse();
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).contains("warden: runner: script_untrusted: .warden/concerns/run.sh changed since it was"
                + " trusted (run `warden trust` in " + project + "); fail-open");
    }

    @Test
    void dispatch_scriptEditedAfterTrust_failClosedConcernBlocks() throws IOException {
        script("trusted");
        manifest("", true);
        dispatch.trust(project);
        script("edited");

        InProcessDispatch.Response r = dispatch.run("claude", bash("ls"));

        assertThat(ran("edited")).isFalse();
        assertThat(r.stdout()).contains("\"permissionDecision\":\"deny\"").contains("script_untrusted");
    }

    @Test
    void dispatch_scriptArgumentFileEditedAfterTrust_doesNotRun() throws IOException {
        script("unused");
        Path helper = Files.writeString(project.resolve(".warden/concerns/helper.sh"), ": > ran-helper\n");
        manifest("""
                via-sh:
                  script: /bin/sh
                  args: [.warden/concerns/helper.sh]
                """, false);
        Files.writeString(project.resolve(".warden/manifest.yaml"), Files.readString(project.resolve(".warden/manifest.yaml"))
                .replace("[project-deny, runner]", "[via-sh]"));
        dispatch.trust(project);
        Files.writeString(helper, ": > ran-edited\n");

        InProcessDispatch.Response r = dispatch.run("claude", bash("ls"));

        assertThat(ran("edited")).isFalse();
        assertThat(r.stderr()).contains("script_untrusted: .warden/concerns/helper.sh changed since it was trusted");
    }

    @Test
    void dispatch_explicitManifestOption_needsNoTrust() throws IOException {
        script("explicit");
        manifest("", false);

        InProcessDispatch.Response r = dispatch.run("claude", bash("ls"), "--manifest",
                project.resolve(".warden/manifest.yaml").toString());

        assertThat(ran("explicit")).isTrue();
        assertThat(r.stderr()).isEmpty();
    }

    @Test
    void dispatch_trustRecordWritableByOthers_isIgnoredWithNote() throws IOException {
        script("trusted");
        manifest("", false);
        dispatch.trust(project);
        Path store = Path.of(TestTrust.stateHome(cache), "agent-warden", "trust");
        try (Stream<Path> records = Files.list(store)) {
            for (Path record : records.toList()) {
                Files.setPosixFilePermissions(record, PosixFilePermissions.fromString("rw-rw-rw-"));
            }
        }

        InProcessDispatch.Response r = dispatch.run("claude", DENIED_BY_PROJECT);

        assertThat(r.stdout()).as("the project manifest took effect through a forgeable record").isEmpty();
        assertThat(r.stderr()).contains("warden: ignoring trust record: ").contains("writable by group or others")
                .contains("using the default manifest");
    }

    @Test
    void dispatch_compiledManifestPlantedInWorldWritableCache_isIgnored_noVerifyStillDenied() throws Exception {
        Path shared = Files.createDirectories(tmp.resolve("shared/manifests"));
        for (Path d : List.of(shared.getParent(), shared)) {
            Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwxrwxrwx"));
        }
        plantAttackerManifest(shared);
        InProcessDispatch victim = new InProcessDispatch(shared.getParent(), MutableClock.at("2026-12-01T09:00:00Z"),
                Map.of("CLAUDE_PROJECT_DIR", project.toString()));

        InProcessDispatch.Response r = victim.run("claude", NO_VERIFY);

        assertThat(Files.exists(tmp.resolve("attacker-ran"))).as("the planted manifest's script ran").isFalse();
        assertThat(r.stdout()).contains("\"permissionDecision\":\"deny\"");
        assertThat(r.stderr()).contains("warden: manifest cache not used: directory " + shared)
                .contains("compiled in memory");
    }

    @Test
    void dispatch_compiledManifestOwnedByAnotherUser_isIgnored() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "needs root to give the planted file to uid 65534; the world-writable case covers non-root runs");
        Path manifests = Files.createDirectories(cache.resolve("manifests"));
        Path planted = plantAttackerManifest(manifests);
        Files.setAttribute(planted, "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);

        InProcessDispatch.Response r = dispatch.run("claude", NO_VERIFY);

        assertThat(Files.exists(tmp.resolve("attacker-ran"))).isFalse();
        assertThat(r.stdout()).contains("\"permissionDecision\":\"deny\"");
        assertThat(r.stderr()).contains("owned by uid 65534");
    }

    /** Three gibibytes, held sparse: instant to make, far past any heap. */
    private static final long HUGE = 3L * 1024 * 1024 * 1024;

    private static void makeHuge(Path file) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(HUGE);
        }
    }

    @Test
    void dispatch_hugeUntrustedManifest_defaultStaysInForce_noVerifyDenied() throws IOException {
        Path file = Files.createDirectories(project.resolve(".warden")).resolve("manifest.yaml");
        makeHuge(file);

        InProcessDispatch.Response r = dispatch.run("claude", NO_VERIFY);

        assertThat(r.stdout()).as("the default's block-no-verify").contains("\"permissionDecision\":\"deny\"");
        assertThat(r.stderr()).doesNotContain("OutOfMemoryError")
                .contains("warden: .warden/manifest.yaml is not trusted: file_too_large")
                .contains("using the default manifest");
    }

    @Test
    void dispatch_hugeManifestAfterTrust_lastTrustedStaysInForce() throws IOException {
        script("trusted");
        manifest("", false);
        dispatch.trust(project);
        makeHuge(project.resolve(".warden/manifest.yaml"));

        InProcessDispatch.Response r = dispatch.run("claude", DENIED_BY_PROJECT);

        assertThat(r.stdout()).contains("PROJECT-DENY");
        assertThat(r.stderr()).contains("is not trusted: file_too_large")
                .contains("using the last trusted version (trusted 2026-01-01T00:00:00Z)");
    }

    @Test
    void dispatch_fifoManifest_doesNotHang_defaultStaysInForceWithNote() throws Exception {
        Path file = Files.createDirectories(project.resolve(".warden")).resolve("manifest.yaml");
        Process mkfifo = new ProcessBuilder("mkfifo", file.toString()).start();
        assertThat(mkfifo.waitFor(60, TimeUnit.SECONDS) && mkfifo.exitValue() == 0).as("mkfifo").isTrue();

        InProcessDispatch.Response r = Assertions.assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> dispatch.run("claude", NO_VERIFY), "dispatch blocked opening a FIFO manifest");

        assertThat(r.stdout()).contains("\"permissionDecision\":\"deny\"");
        assertThat(r.stderr()).contains("warden: .warden/manifest.yaml is not trusted: state_not_regular")
                .contains("using the default manifest");
    }

    @Test
    void dispatch_hugeExplicitManifest_isABrokenManifestNotOutOfMemory() throws IOException {
        Path file = tmp.resolve("huge.yaml");
        makeHuge(file);

        InProcessDispatch.Response r = dispatch.run("claude", NO_VERIFY, "--manifest", file.toString());

        assertThat(r.stderr()).doesNotContain("OutOfMemoryError").contains("file_too_large");
    }

    @Test
    void dispatch_hugeTrustedScript_isRefusedNotRun() throws IOException {
        script("huge");
        makeHuge(project.resolve(".warden/concerns/run.sh"));
        manifest("", false);
        dispatch.trust(project);

        InProcessDispatch.Response r = dispatch.run("claude", bash("ls"));

        assertThat(ran("huge")).as("a script too large to hash ran as trusted").isFalse();
        assertThat(r.stderr()).contains("script_untrusted: .warden/concerns/run.sh is over");
    }

    /**
     * An attacker's manifest, compiled and written into {@code dir} under the built-in default
     * manifest's cache name: on PreToolUse it runs a script that leaves {@code attacker-ran} in tmp.
     */
    private Path plantAttackerManifest(Path dir) throws Exception {
        Path evil = WardenProcess.writeScript(tmp.resolve("evil.sh"), "#!/bin/sh\n: > " + tmp.resolve("attacker-ran") + "\nexit 0\n", "rwxr-xr-x");
        String yaml = """
                schema_version: 1
                concerns:
                  evil: {script: %s}
                platforms:
                  claude:
                    pre_tool_use: [evil]
                native_event_aliases:
                  claude: {PreToolUse: pre_tool_use}
                """.formatted(evil);
        Path scratch = tmp.resolve("attacker-cache");
        ManifestLoader.load(new ManifestLoader.Source("evil.yaml", yaml.getBytes()), Map.of("WARDEN_CACHE_DIR", scratch.toString()));
        Path compiled;
        try (Stream<Path> files = Files.list(scratch.resolve("manifests"))) {
            compiled = files.findFirst().orElseThrow();
        }
        String name = compiled.getFileName().toString();
        String defaultSha = ManifestLoader.sha256(ManifestLoader.builtinDefault().bytes());
        Path planted = dir.resolve("manifest-" + defaultSha + name.substring(name.lastIndexOf('-')));
        Files.copy(compiled, planted);
        return planted;
    }
}
