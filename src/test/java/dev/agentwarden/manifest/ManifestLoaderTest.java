package dev.agentwarden.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.event.EventName;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Locating the manifest in force and the compiled cache keyed by the source's content hash. What
 * the loader did is read off the cache directory, never off timing.
 */
class ManifestLoaderTest {
    @TempDir
    Path dir;

    private static final String YAML = """
            schema_version: 1
            concerns:
              note:
                script: builtin:context-note
                message: first
                timeout_ms: 500
            platforms:
              claude:
                stop: [note]
            native_event_aliases:
              claude:
                Stop: stop
            """;

    private Map<String, String> env() {
        return Map.of("WARDEN_CACHE_DIR", dir.resolve("cache").toString());
    }

    private Path cacheDir() {
        return dir.resolve("cache/manifests");
    }

    private List<Path> cached() throws IOException {
        if (!Files.isDirectory(cacheDir())) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(cacheDir())) {
            return s.sorted().toList();
        }
    }

    private static ManifestLoader.Source source(String yaml) {
        return new ManifestLoader.Source("m.yaml", yaml.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void load_firstTime_compilesAndWritesOneCacheFileNamedByContentHash() throws Exception {
        String sha = ManifestLoader.sha256(YAML.getBytes(StandardCharsets.UTF_8));

        Manifest m = ManifestLoader.load(source(YAML), env());

        assertThat(cached()).extracting(p -> p.getFileName().toString()).containsExactly("manifest-" + sha + "-v" + ManifestCodec.FORMAT + ".json");
        assertThat(m.sourceSha256()).isEqualTo(sha);
        Map<String, Object> compiled = Json.parseObject(Files.readString(cached().get(0)));
        assertThat(compiled).containsEntry("format", (long) ManifestCodec.FORMAT).containsEntry("source_sha256", sha);
    }

    @Test
    void load_secondTime_readsTheCacheNotTheYaml() throws Exception {
        ManifestLoader.load(source(YAML), env());
        Path cacheFile = cached().get(0);
        Files.writeString(cacheFile, Files.readString(cacheFile).replace("\"timeout_ms\":500", "\"timeout_ms\":4242"));

        Manifest m = ManifestLoader.load(source(YAML), env());

        assertThat(m.concerns().get("note").timeoutMs()).as("value only the cache file holds").isEqualTo(4242);
        assertThat(cached()).hasSize(1);
    }

    @Test
    void load_sourceChanged_rebuiltUnderNewHash() throws Exception {
        ManifestLoader.load(source(YAML), env());
        String changed = YAML.replace("message: first", "message: second");

        Manifest m = ManifestLoader.load(source(changed), env());

        assertThat(m.concerns().get("note").setting("message", null)).isEqualTo("second");
        assertThat(cached()).extracting(p -> p.getFileName().toString()).containsExactlyInAnyOrder(
                "manifest-" + ManifestLoader.sha256(YAML.getBytes(StandardCharsets.UTF_8)) + "-v" + ManifestCodec.FORMAT + ".json",
                "manifest-" + ManifestLoader.sha256(changed.getBytes(StandardCharsets.UTF_8)) + "-v" + ManifestCodec.FORMAT + ".json");
    }

    @Test
    void load_projectManifestEdited_nextLoadSeesTheEdit() throws Exception {
        Path project = Files.createDirectories(dir.resolve("project/.warden")).getParent();
        Files.writeString(project.resolve(".warden/manifest.yaml"), YAML);
        ManifestLoader.load(ManifestLoader.locate(null, project.toString()), env());

        Files.writeString(project.resolve(".warden/manifest.yaml"), YAML.replace("stop: [note]", "stop: []"));
        Manifest m = ManifestLoader.load(ManifestLoader.locate(null, project.toString()), env());

        assertThat(m.chain("claude", EventName.STOP, "")).isEmpty();
        assertThat(cached()).hasSize(2);
    }

    static Stream<String> corruptCaches() {
        return Stream.of("", "not json", "{\"format\":1}", "{\"format\":99,\"aliases\":{}}", "[1,2]",
                "{\"format\":1,\"source_sha256\":\"x\",\"aliases\":{},\"concerns\":{\"note\":{\"script\":7}},\"chains\":{}}");
    }

    @Test
    void load_corruptOrStaleCache_recompiledAndRewritten() throws Exception {
        Manifest fresh = ManifestLoader.load(source(YAML), env());
        Path cacheFile = cached().get(0);
        String good = Files.readString(cacheFile);

        for (String bad : corruptCaches().toList()) {
            Files.writeString(cacheFile, bad);

            Manifest m = ManifestLoader.load(source(YAML), env());

            assertThat(m).as(bad).isEqualTo(fresh);
            assertThat(Files.readString(cacheFile)).as(bad).isEqualTo(good);
        }
    }

    @Test
    void load_compiledFormPlantedInWorldWritableCache_isIgnoredAndNothingWrittenThere() throws Exception {
        Path shared = Files.createDirectories(dir.resolve("shared/manifests"));
        for (Path d : List.of(shared.getParent(), shared)) {
            Files.setPosixFilePermissions(d, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        }
        Manifest other = ManifestLoader.load(source(YAML.replace("message: first", "message: planted")), env());
        Path planted = shared.resolve("manifest-" + ManifestLoader.sha256(YAML.getBytes(StandardCharsets.UTF_8)) + "-v" + ManifestCodec.FORMAT + ".json");
        Files.writeString(planted, ManifestCodec.write(other));
        List<String> notes = new java.util.ArrayList<>();

        Manifest m = ManifestLoader.load(source(YAML), Map.of("WARDEN_CACHE_DIR", shared.getParent().toString()), notes);

        assertThat(m.concerns().get("note").setting("message", "")).isEqualTo("first");
        assertThat(notes).singleElement().asString().contains("manifest cache not used: directory " + shared.getParent())
                .contains("writable by group or others").contains("compiled in memory");
        try (Stream<Path> s = Files.list(shared)) {
            assertThat(s).containsExactly(planted);
        }
    }

    @Test
    void load_cacheDirectoryWorldWritable_compiledFormNotWritten() throws Exception {
        Path shared = Files.createDirectories(dir.resolve("open"));
        Files.setPosixFilePermissions(shared, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        List<String> notes = new java.util.ArrayList<>();

        ManifestLoader.load(source(YAML), Map.of("WARDEN_CACHE_DIR", shared.toString()), notes);

        assertThat(notes).singleElement().asString().contains("directory " + shared);
        try (Stream<Path> s = Files.list(shared.resolve("manifests"))) {
            assertThat(s).isEmpty();
        }
    }

    @Test
    void load_privateCache_writtenOwnerOnly() throws Exception {
        ManifestLoader.load(source(YAML), env());

        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(cached().get(0))))
                .isEqualTo("rw-------");
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(cacheDir())))
                .isEqualTo("rwx------");
    }

    @Test
    void load_unwritableCache_stillLoads() throws Exception {
        Path notADirectory = Files.writeString(dir.resolve("plain-file"), "x");

        Manifest m = ManifestLoader.load(source(YAML), Map.of("WARDEN_CACHE_DIR", notADirectory.resolve("cache").toString()));

        assertThat(m.concerns()).containsKey("note");
        assertThat(Files.readString(notADirectory)).isEqualTo("x");
    }

    @Test
    void load_manifestWithErrors_throwsAndCachesNothing() {
        String broken = YAML.replace("stop: [note]", "stop: ghost");

        assertThatThrownBy(() -> ManifestLoader.load(source(broken), env()))
                .isInstanceOfSatisfying(ManifestException.class, e -> {
                    assertThat(e.unreadable()).isFalse();
                    assertThat(e.problems()).extracting(ManifestProblem::key).contains("platforms.claude.stop");
                    assertThat(e.getMessage()).contains("warden manifest lint");
                });
        assertThat(Files.exists(cacheDir()) ? cacheDir().toFile().list() : new String[0]).isEmpty();
    }

    /** Issue 28 item 12: the entries compiled out of a chain survive the compiled cache (format 4). */
    @Test
    void load_chainWithUnknownEntry_cachedAndReadBackWithItsSkippedEntry() throws Exception {
        String oneBadEntry = YAML.replace("stop: [note]", "stop: [note, ghost]");

        Manifest compiled = ManifestLoader.load(source(oneBadEntry), env());
        assertThat(cached()).hasSize(1);
        Manifest fromCache = ManifestCodec.read("m.yaml", Files.readString(cached().get(0)));

        assertThat(compiled.skipped("claude", dev.agentwarden.event.EventName.STOP)).singleElement().asString()
                .startsWith("ghost: unknown concern (line ");
        assertThat(fromCache.skipped()).isEqualTo(compiled.skipped());
        assertThat(fromCache.chains()).isEqualTo(compiled.chains());
    }

    @Test
    void codec_agentConfigShapedManifest_roundTripsExactly() throws Exception {
        String yaml = ManifestCompilerTest.resource("/manifest/agent-config-shaped.yaml");
        ManifestLoader.Source s = source(yaml);

        Manifest compiled = ManifestLoader.load(s, env());
        Manifest fromCache = ManifestLoader.load(s, env());

        assertThat(fromCache).isEqualTo(compiled);
        assertThat(ManifestCodec.write(fromCache)).isEqualTo(ManifestCodec.write(compiled));
    }

    @Test
    void locate_precedence_explicitThenProjectThenBuiltin() throws Exception {
        Path project = Files.createDirectories(dir.resolve("p/.warden")).getParent();
        Path explicit = Files.writeString(dir.resolve("explicit.yaml"), YAML);

        assertThat(ManifestLoader.locate(null, project.toString()).name()).isEqualTo(ManifestLoader.DEFAULT_SOURCE);
        Files.writeString(project.resolve(".warden/manifest.yaml"), YAML);
        assertThat(ManifestLoader.locate(null, project.toString()).name()).isEqualTo(project.resolve(".warden/manifest.yaml").toString());
        assertThat(ManifestLoader.locate(explicit.toString(), project.toString()).name()).isEqualTo(explicit.toString());
    }

    @Test
    void locate_explicitMissing_unreadable() {
        assertThatThrownBy(() -> ManifestLoader.locate(dir.resolve("nope.yaml").toString(), dir.toString()))
                .isInstanceOfSatisfying(ManifestException.class, e -> assertThat(e.unreadable()).isTrue());
    }

    @Test
    void cacheDir_wardenVariableThenXdgThenHome() {
        assertThat(ManifestLoader.cacheDir(Map.of("WARDEN_CACHE_DIR", "/c", "XDG_CACHE_HOME", "/x"))).isEqualTo(Path.of("/c/manifests"));
        assertThat(ManifestLoader.cacheDir(Map.of("XDG_CACHE_HOME", "/x"))).isEqualTo(Path.of("/x/agent-warden/manifests"));
        assertThat(ManifestLoader.cacheDir(Map.of()))
                .isEqualTo(Path.of(System.getProperty("user.home"), ".cache", "agent-warden", "manifests"));
    }
}
