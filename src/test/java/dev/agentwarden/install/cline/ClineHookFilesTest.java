package dev.agentwarden.install.cline;

import dev.agentwarden.install.HookLauncher;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.install.HookFiles;
import dev.agentwarden.install.SettingsFile.SettingsException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Warden's Cline hook files: written, recognised, replaced and removed exactly, never over a user's own. */
class ClineHookFilesTest {
    private static final String LAUNCHER = "/opt/warden/bin/warden";

    @TempDir
    Path tmp;

    private HookFiles project(Path root) {
        return new HookFiles(new ClineHookFiles(false), root, Map.of("HOME", tmp.resolve("home").toString()), tmp.resolve("locks"));
    }

    @Test
    void install_writesOneExecutableFilePerEvent_thatExecsTheLauncherByAbsolutePath() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("p"));
        List<String> report = project(root).install(HookLauncher.plain(LAUNCHER), List.of("PreToolUse", "PostToolUse"), false);
        Path pre = root.resolve(".clinerules/hooks/PreToolUse");
        assertThat(report).contains("wrote " + pre + " (mode 0755)");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(pre))).isEqualTo("rwxr-xr-x");
        assertThat(Files.readString(pre)).startsWith("#!/bin/sh\n")
                .contains("launcher='" + LAUNCHER + "'\n")
                .contains("exec \"$launcher\" dispatch --host cline --native-event PreToolUse\n");
        assertThat(project(root).read().warden()).containsOnlyKeys("PreToolUse", "PostToolUse").containsValue(HookLauncher.plain(LAUNCHER));
        assertThat(project(root).install(HookLauncher.plain(LAUNCHER), List.of("PreToolUse", "PostToolUse"), false))
                .containsExactly("unchanged " + pre, "unchanged " + root.resolve(".clinerules/hooks/PostToolUse"));
    }

    @Test
    void install_overAUsersOwnFileOfTheSameName_isRefused_andWritesNothing() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("p"));
        Path hooks = Files.createDirectories(root.resolve(".clinerules/hooks"));
        Files.writeString(hooks.resolve("PreToolUse"), "#!/bin/sh\necho mine\n");
        assertThatThrownBy(() -> project(root).install(HookLauncher.plain(LAUNCHER), List.of("PostToolUse", "PreToolUse"), false))
                .isInstanceOf(SettingsException.class)
                .hasMessageContaining(hooks.resolve("PreToolUse") + " (not the file Warden writes) is yours")
                .hasMessageContaining("nothing was installed")
                .extracting(e -> ((SettingsException) e).code()).isEqualTo("hook_file_taken");
        assertThat(Files.readString(hooks.resolve("PreToolUse"))).isEqualTo("#!/bin/sh\necho mine\n");
        assertThat(hooks.resolve("PostToolUse")).doesNotExist();
    }

    /** A file Warden wrote and the user then edited is the user's: install refuses it, uninstall keeps it. */
    @Test
    void wardensFile_onceEdited_isTheUsers() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("p"));
        project(root).install(HookLauncher.plain(LAUNCHER), List.of("PreToolUse"), false);
        Path pre = root.resolve(".clinerules/hooks/PreToolUse");
        Files.writeString(pre, Files.readString(pre) + "# my tweak\n");
        assertThat(project(root).read().foreign()).containsOnlyKeys("PreToolUse");
        assertThat(project(root).uninstall()).containsExactly("kept " + pre + " (not the file Warden writes: yours)");
        assertThat(pre).exists();
    }

    @Test
    void uninstall_removesExactlyWhatInstallWrote_andTheDirectoriesItCreated() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("p"));
        Path hooks = root.resolve(".clinerules/hooks");
        project(root).install(HookLauncher.plain(LAUNCHER), List.of("PreToolUse", "PostToolUse"), false);
        Files.writeString(hooks.resolve("PreToolUse.sh"), "#!/bin/sh\n");
        List<String> report = project(root).uninstall();
        assertThat(report).contains("removed " + hooks.resolve("PreToolUse"), "removed " + hooks.resolve("PostToolUse"));
        assertThat(hooks.resolve("PreToolUse.sh")).as("the user's file beside Warden's").exists();
        Files.delete(hooks.resolve("PreToolUse.sh"));
        project(root).install(HookLauncher.plain(LAUNCHER), List.of("PreToolUse"), false);
        project(root).uninstall();
        assertThat(root.resolve(".clinerules")).as("created by install, left empty").doesNotExist();
    }

    @Test
    void uninstall_keepsADirectoryThatExistedBefore() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("p"));
        Path rules = Files.createDirectories(root.resolve(".clinerules"));
        project(root).install(HookLauncher.plain(LAUNCHER), List.of("PreToolUse"), false);
        project(root).uninstall();
        assertThat(rules).isDirectory();
        assertThat(rules.resolve("hooks")).doesNotExist();
    }

    @Test
    void install_rebound_removesWardensFileForAnEventNoLongerBound() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("p"));
        project(root).install(HookLauncher.plain(LAUNCHER), List.of("PreToolUse", "PostToolUse"), false);
        List<String> report = project(root).install(HookLauncher.plain(LAUNCHER), List.of("PreToolUse"), false);
        assertThat(report).contains("removed " + root.resolve(".clinerules/hooks/PostToolUse") + " (no longer bound)");
        assertThat(root.resolve(".clinerules/hooks/PostToolUse")).doesNotExist();
    }

    @Test
    void install_throughSymlinkedHooksDirectory_isRefused() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("p"));
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.createDirectories(root.resolve(".clinerules"));
        Files.createSymbolicLink(root.resolve(".clinerules/hooks"), elsewhere);
        assertThatThrownBy(() -> project(root).install(HookLauncher.plain(LAUNCHER), List.of("PreToolUse"), false))
                .isInstanceOf(SettingsException.class).hasMessageContaining("is a symbolic link")
                .extracting(e -> ((SettingsException) e).code()).isEqualTo("hook_dir_symlink");
        try (var files = Files.list(elsewhere)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void install_overASymlinkedHookFile_isRefused_theLinkTargetUntouched() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("p"));
        Path hooks = Files.createDirectories(root.resolve(".clinerules/hooks"));
        Path target = Files.writeString(tmp.resolve("victim"), "keep\n");
        Files.createSymbolicLink(hooks.resolve("PreToolUse"), target);
        assertThatThrownBy(() -> project(root).install(HookLauncher.plain(LAUNCHER), List.of("PreToolUse"), false))
                .hasMessageContaining("(a symbolic link) is yours");
        assertThat(Files.readString(target)).isEqualTo("keep\n");
        assertThat(Files.isSymbolicLink(hooks.resolve("PreToolUse"))).isTrue();
    }

    @Test
    void dryRun_writesNothing() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("p"));
        assertThat(project(root).install(HookLauncher.plain(LAUNCHER), List.of("PreToolUse"), true))
                .containsExactly("would write " + root.resolve(".clinerules/hooks/PreToolUse") + " (mode 0755)");
        assertThat(root.resolve(".clinerules")).doesNotExist();
    }

    @Test
    void launcherOf_quotedLauncher_roundTrips_andAnyOtherFileIsNotWardens() {
        ClineHookFiles files = new ClineHookFiles(false);
        String odd = "/opt/it's here/bin/warden";
        assertThat(files.launcherOf(files.content(HookLauncher.plain(odd), "PreToolUse"), "PreToolUse")).isEqualTo(HookLauncher.plain(odd));
        assertThat(files.launcherOf(files.content(HookLauncher.plain(LAUNCHER), "PreToolUse"), "PostToolUse"))
                .as("a file under another event's name").isNull();
        assertThat(files.launcherOf("#!/bin/sh\nlauncher='/x'\n".getBytes(StandardCharsets.UTF_8), "PreToolUse")).isNull();
    }

    @Test
    void userScope_isClineDirHooks_anchoredAboveIt() {
        ClineHookFiles user = new ClineHookFiles(true);
        assertThat(user.hooksDirectory(Path.of("/p"), Map.of("HOME", "/home/u"))).isEqualTo(Path.of("/home/u/.cline/hooks"));
        assertThat(user.anchor(Path.of("/p"), Map.of("HOME", "/home/u"))).isEqualTo(Path.of("/home/u"));
        assertThat(user.hooksDirectory(Path.of("/p"), Map.of("HOME", "/home/u", "CLINE_DIR", "/opt/cl")))
                .isEqualTo(Path.of("/opt/cl/hooks"));
    }

    /**
     * Cline treats a hook that fails or prints nothing as "proceed", so the hook file itself answers
     * WARDEN_FAIL_MODE=closed with a cancel when its launcher is gone.
     */
    @Test
    void hookFile_launcherMissing_failClosedCancels_failOpenPrintsNothing() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("p"));
        project(root).install(HookLauncher.plain(tmp.resolve("gone/bin/warden").toString()), List.of("PreToolUse", "TaskStart"), false);
        Path pre = root.resolve(".clinerules/hooks/PreToolUse");
        String[] closed = run(pre, "closed");
        assertThat(closed[0]).isEqualTo("{\"cancel\":true,\"errorMessage\":\"[warden] Warden cannot run (WARDEN_FAIL_MODE=closed)\"}\n");
        assertThat(closed[1]).contains("is missing");
        assertThat(run(pre, "open")[0]).isEmpty();
        assertThat(run(root.resolve(".clinerules/hooks/TaskStart"), "closed")[0]).as("Cline reads no output on TaskStart").isEmpty();
    }

    private static String[] run(Path hook, String mode) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("sh", hook.toString());
        pb.environment().put("WARDEN_FAIL_MODE", mode);
        Process p = pb.start();
        p.getOutputStream().close();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        return new String[] {new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)};
    }

    @Test
    void read_ignoresUnrelatedFilesAndTemporaryNames() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("p"));
        Path hooks = Files.createDirectories(root.resolve(".clinerules/hooks"));
        Files.writeString(hooks.resolve(".PreToolUse.warden-1.tmp"), "x");
        Files.writeString(hooks.resolve("README.md"), "x");
        HookFiles.State state = project(root).read();
        assertThat(state.warden()).isEmpty();
        assertThat(state.foreign()).isEmpty();
        assertThat(Files.exists(hooks.resolve("PreToolUse"), LinkOption.NOFOLLOW_LINKS)).isFalse();
    }
}
