package dev.agentwarden.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.host.claude.ClaudeSettings;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

/** A settings file edited under a lock and replaced atomically; bad files refused and left byte-identical. */
class SettingsFileTest {
    @TempDir
    Path dir;

    private static final List<ClaudeSettings.Binding> BINDINGS = List.of(
            new ClaudeSettings.Binding("PreToolUse", "*"), new ClaudeSettings.Binding("Stop", null));

    @Test
    void read_absentOrBlank_emptyObject() throws Exception {
        Path file = dir.resolve(".claude/settings.json");

        assertThat(new SettingsFile(file).read()).isEmpty();
        Files.createDirectories(file.getParent());
        Files.writeString(file, "  \n");
        assertThat(new SettingsFile(file).read()).isEmpty();
    }

    static Stream<Arguments> refusedFiles() {
        return Stream.of(
                Arguments.of("trailingComma", "{\"hooks\": {},}".getBytes(StandardCharsets.UTF_8), "settings_not_json"),
                Arguments.of("comment", "{\n  // my settings\n  \"model\": \"opus\"\n}\n".getBytes(StandardCharsets.UTF_8), "settings_not_json"),
                Arguments.of("truncated", "{\"hooks\": {\"Stop\": [".getBytes(StandardCharsets.UTF_8), "settings_not_json"),
                Arguments.of("array", "[1, 2]".getBytes(StandardCharsets.UTF_8), "settings_not_object"),
                Arguments.of("string", "\"settings\"".getBytes(StandardCharsets.UTF_8), "settings_not_object"),
                Arguments.of("binary", new byte[] {0x00, (byte) 0xff, 0x7b, 0x10}, "settings_not_json"),
                Arguments.of("tooLarge", ("{\"x\":\"" + "a".repeat(5 * 1024 * 1024) + "\"}").getBytes(StandardCharsets.UTF_8),
                        "settings_too_large"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedFiles")
    void update_unreadableSettings_refusedAndLeftByteIdentical(String name, byte[] content, String code) throws IOException {
        Path file = dir.resolve("settings.json");
        Files.write(file, content);
        SettingsFile settings = new SettingsFile(file);

        assertThatThrownBy(() -> settings.update(s -> ClaudeSettings.install(s, "/w/bin/warden", "claude", BINDINGS)))
                .isInstanceOfSatisfying(SettingsFile.SettingsException.class, e -> {
                    assertThat(e.code()).isEqualTo(code);
                    assertThat(e.getMessage()).contains(file.toString());
                });
        assertThat(Files.readAllBytes(file)).isEqualTo(content);
        assertThat(otherFiles(file)).isEmpty();
    }

    @Test
    void update_notJson_messageSaysLeftUnchanged() throws IOException {
        Path file = Files.writeString(dir.resolve("settings.json"), "{oops}");

        assertThatThrownBy(() -> new SettingsFile(file).update(s -> s))
                .hasMessageContaining("is not valid JSON").hasMessageContaining("It was left unchanged");
    }

    @Test
    void update_installThenUninstall_userSettingsBackExactly() throws Exception {
        Path file = dir.resolve("settings.json");
        String user = "{\"model\":\"opus\",\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":"
                + "[{\"type\":\"command\",\"command\":\"audit.sh\"}]}]},\"env\":{\"ID\":1234567890123456789}}";
        Files.writeString(file, user);
        SettingsFile settings = new SettingsFile(file);

        settings.update(s -> ClaudeSettings.install(s, "/w/bin/warden", "claude", BINDINGS));
        assertThat(ClaudeSettings.installedEvents(settings.read())).containsExactly("PreToolUse", "Stop");
        settings.update(ClaudeSettings::uninstall);

        assertThat(Json.write(settings.read())).isEqualTo(user);
        assertThat(otherFiles(file)).as("no temp files left").isEmpty();
    }

    /**
     * Regression: update() compared the change's result with the map it had handed to the change,
     * so a change that edited that map in place looked like no change and was silently dropped.
     */
    @Test
    void changeMutatingItsInput_stillWritten() throws Exception {
        Path file = Files.writeString(dir.resolve("settings.json"), "{\"model\":\"opus\"}");

        new SettingsFile(file).update(s -> {
            s.put("theme", "dark");
            return s;
        });

        assertThat(Json.write(new SettingsFile(file).read())).isEqualTo("{\"model\":\"opus\",\"theme\":\"dark\"}");
    }

    @Test
    void update_unchangedContent_fileNotRewritten() throws Exception {
        Path file = dir.resolve("settings.json");
        SettingsFile settings = new SettingsFile(file);
        settings.update(s -> ClaudeSettings.install(s, "/w/bin/warden", "claude", BINDINGS));
        Object inode = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
        byte[] before = Files.readAllBytes(file);

        settings.update(s -> ClaudeSettings.install(s, "/w/bin/warden", "claude", BINDINGS));

        assertThat(Files.readAllBytes(file)).isEqualTo(before);
        assertThat(Files.readAttributes(file, BasicFileAttributes.class).fileKey()).as("same inode: not replaced").isEqualTo(inode);
    }

    @Test
    void update_change_replacesAtomicallyKeepingPermissions() throws Exception {
        Path file = Files.writeString(dir.resolve("settings.json"), "{\"model\":\"opus\"}");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        Object inode = Files.readAttributes(file, BasicFileAttributes.class).fileKey();

        new SettingsFile(file).update(s -> ClaudeSettings.install(s, "/w/bin/warden", "claude", BINDINGS));

        assertThat(Files.readAttributes(file, BasicFileAttributes.class).fileKey()).as("replaced by rename").isNotEqualTo(inode);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.readString(file)).startsWith("{\n  \"model\": \"opus\",\n  \"hooks\": {").endsWith("}\n");
    }

    @Test
    void update_newFile_createdWithParentAndReadableMode() throws Exception {
        Path file = dir.resolve("home/.claude/settings.json");

        new SettingsFile(file).update(s -> ClaudeSettings.install(s, "/w/bin/warden", "cowork", BINDINGS));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-r--r--");
        assertThat(ClaudeSettings.installedEvents(new SettingsFile(file).read())).containsExactly("PreToolUse", "Stop");
    }

    @Test
    void update_settingsWithLoneSurrogateEscape_rewrittenFaithfully() throws Exception {
        Path file = Files.writeString(dir.resolve("settings.json"), "{\"statusLine\":{\"text\":\"\\ud83d x\"}}");

        new SettingsFile(file).update(s -> ClaudeSettings.install(s, "/w/bin/warden", "claude", BINDINGS));
        new SettingsFile(file).update(ClaudeSettings::uninstall);

        assertThat(Json.write(new SettingsFile(file).read())).isEqualTo("{\"statusLine\":{\"text\":\"\\ud83d x\"}}");
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
                    SettingsFile settings = new SettingsFile(file);
                    for (int r = 0; r < rounds; r++) {
                        String key = "user-" + id + "-" + r;
                        long round = r;
                        settings.update(s -> {
                            Map<String, Object> out = ClaudeSettings.install(s, "/w/bin/warden", "claude", BINDINGS);
                            out.put(key, round);
                            return out;
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

        Map<String, Object> last = new SettingsFile(file).read();
        assertThat(last.keySet().stream().filter(k -> k.startsWith("user-"))).hasSize(threads * rounds);
        assertThat(ClaudeSettings.installedEvents(last)).containsExactly("PreToolUse", "Stop");
        assertThat(Json.write(last.get("hooks"))).as("Warden's entries once, not once per installer")
                .isEqualTo(Json.write(ClaudeSettings.install(Json.object(), "/w/bin/warden", "claude", BINDINGS).get("hooks")));
    }

    /** Files next to {@code file} other than itself and Warden's lock file. */
    private static List<String> otherFiles(Path file) throws IOException {
        try (Stream<Path> s = Files.list(file.getParent())) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> !n.equals(file.getFileName().toString()) && !n.equals("." + file.getFileName() + ".warden-lock"))
                    .toList();
        }
    }
}
