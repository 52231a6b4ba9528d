package dev.agentwarden.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.install.claude.ClaudeSettings;
import dev.agentwarden.json.JsonSpans;
import dev.agentwarden.json.JsonSplice;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A settings file edited under a lock and replaced atomically, through symbolic links to their
 * target; bad, read-only and unreachable files refused and left byte-identical.
 */
class SettingsFileTest {
    @TempDir
    Path dir;

    @TempDir
    Path locks;

    private static final List<Installer.Binding> BINDINGS = List.of(
            new Installer.Binding("PreToolUse", "*"), new Installer.Binding("Stop", null));

    private static final SettingsFile.Edit INSTALL = doc -> ClaudeSettings.install(doc, HookLauncher.plain("/w/bin/warden"), "claude", BINDINGS);
    private static final SettingsFile.Edit UNINSTALL = doc -> ClaudeSettings.uninstall(doc, "claude");

    private SettingsFile settings(Path file) {
        return new SettingsFile(file, locks, null);
    }

    @Test
    void read_absentOrBlank_emptyObject() throws Exception {
        Path file = dir.resolve(".claude/settings.json");

        assertThat(new String(settings(file).read(), StandardCharsets.UTF_8)).isEqualTo("{}\n");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "  \n");
        assertThat(new String(settings(file).read(), StandardCharsets.UTF_8)).isEqualTo("{}\n");
    }

    static Stream<Arguments> refusedFiles() {
        return Stream.of(
                Arguments.of("trailingComma", "{\"hooks\": {},}".getBytes(StandardCharsets.UTF_8), "settings_not_json"),
                Arguments.of("comment", "{\n  // my settings\n  \"model\": \"opus\"\n}\n".getBytes(StandardCharsets.UTF_8), "settings_not_json"),
                Arguments.of("truncated", "{\"hooks\": {\"Stop\": [".getBytes(StandardCharsets.UTF_8), "settings_not_json"),
                Arguments.of("array", "[1, 2]".getBytes(StandardCharsets.UTF_8), "settings_not_object"),
                Arguments.of("string", "\"settings\"".getBytes(StandardCharsets.UTF_8), "settings_not_object"),
                Arguments.of("binary", new byte[] {0x00, (byte) 0xff, 0x7b, 0x10}, "settings_not_json"),
                Arguments.of("controlCharInString", "{\"a\": \"x\ty\"}".getBytes(StandardCharsets.UTF_8), "settings_not_json"),
                Arguments.of("tooLarge", ("{\"x\":\"" + "a".repeat(5 * 1024 * 1024) + "\"}").getBytes(StandardCharsets.UTF_8),
                        "settings_too_large"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedFiles")
    void update_unreadableSettings_refusedAndLeftByteIdentical(String name, byte[] content, String code) throws IOException {
        Path file = dir.resolve("settings.json");
        Files.write(file, content);

        assertThatThrownBy(() -> settings(file).update(INSTALL))
                .isInstanceOfSatisfying(SettingsFile.SettingsException.class, e -> {
                    assertThat(e.code()).isEqualTo(code);
                    assertThat(e.getMessage()).contains(file.toString());
                });
        assertThat(Files.readAllBytes(file)).isEqualTo(content);
        assertThat(otherFiles(file)).isEmpty();
    }

    /** Issue 28 item 10's class: a settings file that is a FIFO (or a link to a device) is refused, never read. */
    @Test
    void update_settingsAFifoOrDevZero_refusedAtOnce_noHang() throws Exception {
        Path fifo = dir.resolve("settings.json");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        Path zero = Files.createSymbolicLink(dir.resolve("zero.json"), Path.of("/dev/zero"));

        for (Path file : new Path[] {fifo, zero}) {
            org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(60), () ->
                    assertThatThrownBy(() -> settings(file).update(doc -> doc))
                            .isInstanceOfSatisfying(SettingsFile.SettingsException.class, e -> assertThat(e.code())
                                    .isEqualTo("settings_not_a_file"))
                            .hasMessageContaining("not a regular file"));
        }
    }

    @Test
    void update_notJson_messageSaysLeftUnchanged() throws IOException {
        Path file = Files.writeString(dir.resolve("settings.json"), "{oops}");

        assertThatThrownBy(() -> settings(file).update(doc -> doc))
                .hasMessageContaining("is not valid JSON").hasMessageContaining("It was left unchanged");
    }

    @Test
    void update_installThenUninstall_userSettingsBackExactly() throws Exception {
        Path file = dir.resolve("settings.json");
        String user = "{\"model\":\"opus\",\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":"
                + "[{\"type\":\"command\",\"command\":\"audit.sh\"}]}]},\"env\":{\"ID\":1234567890123456789}}";
        Files.writeString(file, user);

        settings(file).update(INSTALL);
        assertThat(ClaudeSettings.installedEvents(settings(file).read(), "claude")).containsExactly("PreToolUse", "Stop");
        settings(file).update(UNINSTALL);

        assertThat(Files.readString(file)).isEqualTo(user);
        assertThat(otherFiles(file)).as("no temp or lock files beside the settings").isEmpty();
    }

    @Test
    void update_unchangedContent_fileNotRewritten() throws Exception {
        Path file = dir.resolve("settings.json");
        settings(file).update(INSTALL);
        Object inode = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
        byte[] before = Files.readAllBytes(file);

        settings(file).update(INSTALL);

        assertThat(Files.readAllBytes(file)).isEqualTo(before);
        assertThat(Files.readAttributes(file, BasicFileAttributes.class).fileKey()).as("same inode: not replaced").isEqualTo(inode);
    }

    @Test
    void update_change_replacesAtomicallyKeepingPermissions() throws Exception {
        Path file = Files.writeString(dir.resolve("settings.json"), "{\n  \"model\": \"opus\"\n}\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        Object inode = Files.readAttributes(file, BasicFileAttributes.class).fileKey();

        settings(file).update(INSTALL);

        assertThat(Files.readAttributes(file, BasicFileAttributes.class).fileKey()).as("replaced by rename").isNotEqualTo(inode);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.readString(file)).startsWith("{\n  \"model\": \"opus\",\n  \"hooks\": {").endsWith("}\n");
    }

    @Test
    void update_newFile_createdWithParentAndReadableMode() throws Exception {
        Path file = dir.resolve("home/.claude/settings.json");

        settings(file).update(doc -> ClaudeSettings.install(doc, HookLauncher.plain("/w/bin/warden"), "cowork", BINDINGS));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-r--r--");
        assertThat(ClaudeSettings.installedEvents(settings(file).read(), "cowork")).containsExactly("PreToolUse", "Stop");
    }

    /** Regression: the lock file was left beside the settings, inside the project, where it got committed. */
    @Test
    void update_lockFile_keptInLockDirNotBesideSettings() throws Exception {
        Path file = dir.resolve("project/.claude/settings.json");

        settings(file).update(INSTALL);

        try (Stream<Path> s = Files.list(file.getParent())) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactly("settings.json");
        }
        try (Stream<Path> s = Files.list(locks)) {
            // the lock, and the record of what this update created (for uninstall)
            assertThat(s.map(p -> p.getFileName().toString())).allMatch(n -> n.startsWith("settings-"))
                    .filteredOn(n -> n.endsWith(".lock")).hasSize(1);
        }
    }

    /** Regression: a retired lock file left at its path (an uninstall stopped between marking and removing it) blocked every edit. */
    @Test
    void update_retiredLockLeftAtItsPath_isReplacedAndTheEditGoesAhead() throws Exception {
        Path file = dir.resolve("project/.claude/settings.json");
        settings(file).update(INSTALL);
        Path lock;
        try (Stream<Path> s = Files.list(locks)) {
            lock = s.filter(p -> p.getFileName().toString().endsWith(".lock")).findFirst().orElseThrow();
        }
        Files.writeString(lock, "retired\n");

        settings(file).update(doc -> ClaudeSettings.uninstall(doc, "claude"));

        assertThat(ClaudeSettings.installedEvents(Files.readAllBytes(file), "claude")).isEmpty();
        assertThat(Files.size(lock)).as("a fresh lock, in use").isZero();
    }

    /** Regression: uninstall left the settings file install had created (holding only "{}") and its lock. */
    @Test
    void updateAndTidy_emptiedFileThatAnUpdateCreated_removesFileDirectoryAndLock() throws Exception {
        Path file = Files.createDirectories(dir.resolve("project")).resolve(".claude/settings.json");
        settings(file).update(INSTALL);
        java.util.List<Path> removed = new java.util.ArrayList<>();

        settings(file).updateAndTidy(doc -> ClaudeSettings.uninstall(doc, "claude"), removed);

        assertThat(removed).containsExactlyInAnyOrder(file, file.getParent());
        assertThat(file.getParent()).doesNotExist();
        try (Stream<Path> s = Files.list(locks)) {
            assertThat(s).isEmpty();
        }
    }

    @Test
    void updateAndTidy_fileThatExistedBefore_staysEvenWhenEmptied() throws Exception {
        Path file = Files.writeString(Files.createDirectories(dir.resolve("project/.claude")).resolve("settings.json"), "{}\n");
        settings(file).update(INSTALL);
        java.util.List<Path> removed = new java.util.ArrayList<>();

        settings(file).updateAndTidy(doc -> ClaudeSettings.uninstall(doc, "claude"), removed);

        assertThat(removed).isEmpty();
        assertThat(Files.readString(file)).isEqualTo("{}\n");
    }

    /** Regression: a symlinked settings file (dotfiles) was replaced by a regular file. */
    @Test
    void update_symlinkedSettings_writesThroughToTarget() throws Exception {
        Path target = Files.writeString(Files.createDirectories(dir.resolve("dotfiles")).resolve("claude-settings.json"),
                "{\n  \"model\": \"opus\"\n}\n");
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-------"));
        Path link = Files.createSymbolicLink(Files.createDirectories(dir.resolve("home/.claude")).resolve("settings.json"),
                Path.of("../../dotfiles/claude-settings.json"));

        settings(link).update(INSTALL);

        assertThat(Files.isSymbolicLink(link)).as("still a link").isTrue();
        assertThat(Files.readSymbolicLink(link)).isEqualTo(Path.of("../../dotfiles/claude-settings.json"));
        assertThat(ClaudeSettings.installedEvents(Files.readAllBytes(target), "claude")).containsExactly("PreToolUse", "Stop");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target))).isEqualTo("rw-------");
        try (Stream<Path> s = Files.list(link.getParent())) {
            assertThat(s.map(p -> p.getFileName().toString())).as("nothing written beside the link").containsExactly("settings.json");
        }
        try (Stream<Path> s = Files.list(target.getParent())) {
            assertThat(s.map(p -> p.getFileName().toString())).as("no temp file left").containsExactly("claude-settings.json");
        }
    }

    @Test
    void update_symlinkChain_writesThroughToFinalTarget() throws Exception {
        Path target = Files.writeString(dir.resolve("real.json"), "{}");
        Path middle = Files.createSymbolicLink(dir.resolve("middle.json"), target);
        Path link = Files.createSymbolicLink(dir.resolve("settings.json"), middle);

        settings(link).update(INSTALL);

        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(Files.isSymbolicLink(middle)).isTrue();
        assertThat(ClaudeSettings.installedEvents(Files.readAllBytes(target), "claude")).containsExactly("PreToolUse", "Stop");
        assertThat(settings(link).target()).isEqualTo(target.toRealPath());
    }

    /** Regression: a dangling link was replaced by a regular file. */
    @Test
    void update_danglingSymlink_refusedAndLinkKept() throws Exception {
        Path link = Files.createSymbolicLink(dir.resolve("settings.json"), dir.resolve("dotfiles/missing.json"));

        assertThatThrownBy(() -> settings(link).update(INSTALL))
                .isInstanceOfSatisfying(SettingsFile.SettingsException.class, e -> {
                    assertThat(e.code()).isEqualTo("settings_dangling_link");
                    assertThat(e.getMessage()).contains(link.toString()).contains("missing.json").contains("does not exist");
                });
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(Files.exists(dir.resolve("dotfiles"))).as("target not created").isFalse();
    }

    @Test
    void update_symlinkLoop_refused() throws Exception {
        Path a = dir.resolve("a.json");
        Path b = Files.createSymbolicLink(dir.resolve("b.json"), a);
        Files.createSymbolicLink(a, b);

        assertThatThrownBy(() -> settings(a).update(INSTALL))
                .isInstanceOfSatisfying(SettingsFile.SettingsException.class, e -> assertThat(e.code()).isEqualTo("settings_dangling_link"));
        assertThat(Files.isSymbolicLink(a)).isTrue();
    }

    /** Regression: a read-only (0444) settings file was rewritten (rename ignores the file's mode; root ignores it too). */
    @Test
    void update_readOnlySettings_refusedAndLeftUntouched() throws Exception {
        byte[] content = "{\"model\": \"opus\"}\n".getBytes(StandardCharsets.UTF_8);
        Path file = Files.write(dir.resolve("settings.json"), content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--r--r--"));
        Object inode = Files.readAttributes(file, BasicFileAttributes.class).fileKey();

        assertThatThrownBy(() -> settings(file).update(INSTALL))
                .isInstanceOfSatisfying(SettingsFile.SettingsException.class, e -> {
                    assertThat(e.code()).isEqualTo("settings_read_only");
                    assertThat(e.getMessage()).contains(file.toString()).contains("read-only").contains("r--r--r--");
                });
        assertThatThrownBy(() -> settings(file).preview(INSTALL)).hasMessageContaining("read-only");
        assertThat(Files.readAllBytes(file)).isEqualTo(content);
        assertThat(Files.readAttributes(file, BasicFileAttributes.class).fileKey()).isEqualTo(inode);
    }

    @Test
    void update_readOnlyButUnchanged_noError() throws Exception {
        Path file = Files.writeString(dir.resolve("settings.json"), "{\"model\": \"opus\"}\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--r--r--"));

        assertThat(settings(file).update(UNINSTALL)).isEqualTo(Files.readAllBytes(file));
    }

    @Test
    void update_confinedAndLinkedOutside_refused() throws Exception {
        Path outside = Files.writeString(dir.resolve("elsewhere.json"), "{}");
        Path project = Files.createDirectories(dir.resolve("project/.claude")).getParent();
        Path link = Files.createSymbolicLink(project.resolve(".claude/settings.json"), outside);
        String outsideReal = outside.toRealPath().toString();

        assertThatThrownBy(() -> new SettingsFile(link, locks, project).update(INSTALL))
                .isInstanceOfSatisfying(SettingsFile.SettingsException.class, e -> {
                    assertThat(e.code()).isEqualTo("settings_outside_project");
                    assertThat(e.getMessage()).contains(outsideReal);
                });
        assertThat(Files.readString(outside)).isEqualTo("{}");
    }

    @Test
    void update_confinedAndLinkedInside_writesTarget() throws Exception {
        Path project = Files.createDirectories(dir.resolve("project"));
        Path shared = Files.writeString(project.resolve("shared-settings.json"), "{}");
        Path link = Files.createSymbolicLink(Files.createDirectories(project.resolve(".claude")).resolve("settings.json"),
                Path.of("../shared-settings.json"));

        new SettingsFile(link, locks, project).update(INSTALL);

        assertThat(ClaudeSettings.installedEvents(Files.readAllBytes(shared), "claude")).containsExactly("PreToolUse", "Stop");
    }

    @Test
    void preview_throughSymlink_writesNothing() throws Exception {
        Path target = Files.writeString(dir.resolve("real.json"), "{}");
        Path link = Files.createSymbolicLink(dir.resolve("settings.json"), target);

        byte[] preview = settings(link).preview(INSTALL);

        assertThat(ClaudeSettings.installedEvents(preview, "claude")).containsExactly("PreToolUse", "Stop");
        assertThat(Files.readString(target)).isEqualTo("{}");
        assertThat(Files.isSymbolicLink(link)).isTrue();
    }

    /**
     * Installers in one JVM (an IDE plugin, a test suite) and user edits racing them: every update
     * sees the previous one, so no entry is lost. Threads share one process, where a file lock
     * alone cannot order them.
     */
    @Test
    void update_concurrentThreads_noEntryLost() throws Exception {
        Path file = dir.resolve(".claude/settings.json");
        int threads = 6;
        int rounds = 15;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                int id = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    SettingsFile settings = settings(file);
                    for (int r = 0; r < rounds; r++) {
                        String key = "user-" + id + "-" + r;
                        long round = r;
                        settings.update(doc -> {
                            byte[] out = INSTALL.apply(doc);
                            return JsonSplice.appendMember(out, JsonSpans.parse(out), key, round);
                        });
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        byte[] last = settings(file).read();
        assertThat(JsonSpans.parse(last).members().stream().filter(m -> m.key().startsWith("user-"))).hasSize(threads * rounds);
        assertThat(ClaudeSettings.installedEvents(last, "claude")).containsExactly("PreToolUse", "Stop");
        JsonSpans.Value hooks = JsonSpans.parse(last).named("hooks").get(0).value();
        assertThat(hooks.members()).as("Warden's entries once, not once per installer").hasSize(2);
        assertThat(hooks.members().get(0).value().elements()).hasSize(1);
    }

    /** Files next to {@code file} other than itself. */
    private static List<String> otherFiles(Path file) throws IOException {
        try (Stream<Path> s = Files.list(file.getParent())) {
            return s.map(p -> p.getFileName().toString()).filter(n -> !n.equals(file.getFileName().toString())).toList();
        }
    }
}
