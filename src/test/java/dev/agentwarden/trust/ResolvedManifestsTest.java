package dev.agentwarden.trust;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.manifest.ManifestLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server's kept resolutions ({@link ResolvedManifests}) go stale the moment anything they were
 * resolved from changes: an edited manifest, a new trust record, a cache or trust directory made
 * writable by others. Most tests compare file times with a wall clock a minute ahead, so that
 * files just written count as settled and the resolution is kept; one uses the real clock.
 */
class ResolvedManifestsTest {
    private static final String DENY_A = manifest("touch a");
    private static final String DENY_LONGER = manifest("touch a-longer-pattern");

    @TempDir
    Path tmp;
    private Path project;
    private Map<String, String> env;
    private ResolvedManifests kept;

    @BeforeEach
    void setUp() throws IOException {
        project = Files.createDirectories(tmp.resolve("project")).toRealPath();
        env = Map.of("HOME", tmp.toRealPath().toString(), "WARDEN_CACHE_DIR", tmp.toRealPath().resolve("cache").toString());
        kept = new ResolvedManifests(Clock.offset(Clock.systemUTC(), Duration.ofMinutes(1)));
    }

    @Test
    void kept_unchangedFiles_isReusedAsIs() throws Exception {
        // the first resolution writes the compiled cache file, which the second sees appear
        kept.inForce(null, project.toString(), env, new ArrayList<>());
        ResolvedManifests.InForce first = kept.inForce(null, project.toString(), env, new ArrayList<>());
        ResolvedManifests.InForce second = kept.inForce(null, project.toString(), env, new ArrayList<>());

        assertThat(kept.keptCount()).isEqualTo(1);
        assertThat(second == first).as("the kept resolution is returned as it is").isTrue();
        assertThat(second.manifest().source()).isEqualTo(ManifestLoader.DEFAULT_SOURCE);
    }

    @Test
    void kept_explicitManifestEdited_nextResolutionSeesTheEdit() throws Exception {
        Path file = Files.writeString(tmp.resolve("mine.yaml"), DENY_A);
        ResolvedManifests.InForce first = kept.inForce(file.toString(), project.toString(), env, new ArrayList<>());
        assertThat(kept.keptCount()).isEqualTo(1);

        Files.writeString(file, DENY_LONGER);
        ResolvedManifests.InForce second = kept.inForce(file.toString(), project.toString(), env, new ArrayList<>());

        assertThat(first.manifest().sourceSha256()).isEqualTo(ManifestLoader.sha256(DENY_A.getBytes()));
        assertThat(second.manifest().sourceSha256()).isEqualTo(ManifestLoader.sha256(DENY_LONGER.getBytes()));
    }

    @Test
    void kept_trustedProjectManifestEdited_nextResolutionUsesTheLastTrustedAndSaysSo() throws Exception {
        Path file = writeProjectManifest(DENY_A);
        TrustStore.forEnv(env).trust(project, Clock.systemUTC());
        List<String> firstNotes = new ArrayList<>();
        ResolvedManifests.InForce first = kept.inForce(null, project.toString(), env, firstNotes);
        assertThat(firstNotes).isEmpty();
        assertThat(first.resolution().source().name()).isEqualTo(file.toString());
        assertThat(kept.keptCount()).isEqualTo(1);

        Files.writeString(file, DENY_LONGER);
        List<String> notes = new ArrayList<>();
        ResolvedManifests.InForce second = kept.inForce(null, project.toString(), env, notes);

        assertThat(notes).anySatisfy(n -> assertThat(n).contains("is not trusted").contains("last trusted version"));
        assertThat(second.resolution().fallback()).isEqualTo("last_trusted:untrusted");
        assertThat(second.manifest().sourceSha256()).isEqualTo(ManifestLoader.sha256(DENY_A.getBytes()));
    }

    @Test
    void kept_defaultThenProjectManifestTrusted_nextResolutionUsesTheProjectManifest() throws Exception {
        ResolvedManifests.InForce first = kept.inForce(null, project.toString(), env, new ArrayList<>());
        assertThat(first.manifest().source()).isEqualTo(ManifestLoader.DEFAULT_SOURCE);
        assertThat(kept.keptCount()).isEqualTo(1);

        Path file = writeProjectManifest(DENY_A);
        TrustStore.forEnv(env).trust(project, Clock.systemUTC());
        ResolvedManifests.InForce second = kept.inForce(null, project.toString(), env, new ArrayList<>());

        assertThat(second.resolution().source().name()).isEqualTo(file.toString());
        assertThat(second.manifest().sourceSha256()).isEqualTo(ManifestLoader.sha256(DENY_A.getBytes()));
    }

    @Test
    void kept_recordAppearsInAnExistingTrustDir_nextResolutionUsesTheProjectManifest() throws Exception {
        Path other = Files.createDirectories(tmp.resolve("other")).toRealPath();
        Files.writeString(Files.createDirectories(other.resolve(".warden")).resolve("manifest.yaml"), DENY_A);
        TrustStore.forEnv(env).trust(other, Clock.systemUTC());
        Path file = writeProjectManifest(DENY_LONGER);
        Files.delete(file);
        ResolvedManifests.InForce first = kept.inForce(null, project.toString(), env, new ArrayList<>());
        assertThat(first.manifest().source()).isEqualTo(ManifestLoader.DEFAULT_SOURCE);
        assertThat(kept.keptCount()).isEqualTo(1);

        writeProjectManifest(DENY_LONGER);
        TrustStore.forEnv(env).trust(project, Clock.systemUTC());
        ResolvedManifests.InForce second = kept.inForce(null, project.toString(), env, new ArrayList<>());

        assertThat(second.resolution().source().name()).isEqualTo(file.toString());
        assertThat(second.manifest().sourceSha256()).isEqualTo(ManifestLoader.sha256(DENY_LONGER.getBytes()));
    }

    @Test
    void kept_defaultThenUntrustedProjectManifestAppears_nextResolutionSaysSo() throws Exception {
        kept.inForce(null, project.toString(), env, new ArrayList<>());
        assertThat(kept.keptCount()).isEqualTo(1);

        writeProjectManifest(DENY_A);
        List<String> notes = new ArrayList<>();
        ResolvedManifests.InForce second = kept.inForce(null, project.toString(), env, notes);

        assertThat(notes).anySatisfy(n -> assertThat(n).contains("is not trusted").contains("using the default manifest"));
        assertThat(second.resolution().fallback()).isEqualTo("default:untrusted");
        assertThat(kept.keptCount()).as("a resolution that warns is not kept").isZero();
    }

    @Test
    void kept_cacheDirMadeWorldWritable_nextResolutionRefusesTheCacheAsBefore() throws Exception {
        kept.inForce(null, project.toString(), env, new ArrayList<>());
        kept.inForce(null, project.toString(), env, new ArrayList<>());
        assertThat(kept.keptCount()).isEqualTo(1);
        Path manifests = Path.of(env.get("WARDEN_CACHE_DIR"), "manifests");

        Files.setPosixFilePermissions(manifests, PosixFilePermissions.fromString("rwxrwxrwx"));
        List<String> notes = new ArrayList<>();
        kept.inForce(null, project.toString(), env, notes);

        assertThat(notes).singleElement().asString().contains("manifest cache not used: directory " + manifests)
                .contains("writable by group or others");
        assertThat(kept.keptCount()).isZero();
    }

    @Test
    void kept_trustDirMadeWorldWritable_nextResolutionIgnoresTheRecordAsBefore() throws Exception {
        writeProjectManifest(DENY_A);
        TrustStore.forEnv(env).trust(project, Clock.systemUTC());
        kept.inForce(null, project.toString(), env, new ArrayList<>());
        assertThat(kept.keptCount()).isEqualTo(1);

        Files.setPosixFilePermissions(TrustStore.dir(env), PosixFilePermissions.fromString("rwxrwxrwx"));
        List<String> notes = new ArrayList<>();
        ResolvedManifests.InForce second = kept.inForce(null, project.toString(), env, notes);

        assertThat(notes).anySatisfy(n -> assertThat(n).contains("ignoring trust record").contains("writable by group or others"));
        assertThat(second.manifest().source()).isEqualTo(ManifestLoader.DEFAULT_SOURCE);
    }

    @Test
    void notKept_filesChangedWithinTheSettlingTime() throws Exception {
        ResolvedManifests real = new ResolvedManifests();
        Path file = Files.writeString(tmp.resolve("fresh.yaml"), DENY_A);

        real.inForce(file.toString(), project.toString(), env, new ArrayList<>());

        assertThat(real.keptCount()).as("a file written just now could be rewritten within its time stamp's tick").isZero();
    }

    @Test
    void projectRealPath_replacedBySymlink_isNotTrustedFromCache() throws Exception {
        // b's manifest is a's file (a hard link): every stamp stays the same when a becomes a link to b
        Path a = Files.createDirectories(tmp.resolve("a")).toRealPath();
        Path b = Files.createDirectories(tmp.resolve("b").resolve(".warden")).getParent().toRealPath();
        Path file = Files.writeString(Files.createDirectories(a.resolve(".warden")).resolve("manifest.yaml"), DENY_A);
        Files.createLink(b.resolve(".warden").resolve("manifest.yaml"), file);
        TrustStore.forEnv(env).trust(a, Clock.systemUTC());
        kept.inForce(null, a.toString(), env, new ArrayList<>());
        ResolvedManifests.InForce first = kept.inForce(null, a.toString(), env, new ArrayList<>());
        assertThat(first.resolution().fallback()).isNull();
        assertThat(kept.keptCount()).isEqualTo(1);

        Files.move(a, tmp.resolve("a-moved"));
        Files.createSymbolicLink(a, b);
        List<String> notes = new ArrayList<>();
        ResolvedManifests.InForce second = kept.inForce(null, a.toString(), env, notes);

        assertThat(second.resolution().fallback()).as("b was never trusted").isEqualTo("default:untrusted");
        assertThat(notes).anySatisfy(n -> assertThat(n).contains("is not trusted"));
    }

    @Test
    void projectRealPath_sameDirectoryUnderAnotherName_isWorkedOutAgainAtTheRecheck() throws Exception {
        long[] now = {0};
        ResolvedManifests ticking = new ResolvedManifests(Clock.offset(Clock.systemUTC(), Duration.ofMinutes(1)),
                () -> now[0]);
        Path x = Files.createDirectories(tmp.resolve("x").resolve("project")).getParent();
        Path link = Files.createSymbolicLink(tmp.resolve("link"), x);
        Path root = link.resolve("project");
        Files.writeString(Files.createDirectories(root.resolve(".warden")).resolve("manifest.yaml"), DENY_A);
        TrustStore.forEnv(env).trust(root.toRealPath(), Clock.systemUTC());
        ticking.inForce(null, root.toString(), env, new ArrayList<>());
        assertThat(ticking.inForce(null, root.toString(), env, new ArrayList<>()).resolution().fallback()).isNull();

        // the same directory, now at another real path, which has no trust record
        Files.move(x, tmp.resolve("y"));
        Files.delete(link);
        Files.createSymbolicLink(link, tmp.resolve("y"));
        now[0] += ResolvedManifests.RECHECK_NANOS - 1;
        assertThat(ticking.inForce(null, root.toString(), env, new ArrayList<>()).resolution().fallback())
                .as("within the recheck time, the kept real path").isNull();
        now[0] += 1;
        assertThat(ticking.inForce(null, root.toString(), env, new ArrayList<>()).resolution().fallback())
                .as("at the recheck, worked out again").isEqualTo("default:untrusted");
    }

    private Path writeProjectManifest(String text) throws IOException {
        return Files.writeString(Files.createDirectories(project.resolve(".warden")).resolve("manifest.yaml"), text);
    }

    private static String manifest(String pattern) {
        return """
                schema_version: 1
                concerns:
                  project-deny:
                    script: builtin:deny-pattern
                    posture: blocking
                    tools: [Bash]
                    patterns:
                      - match: '%s'
                        reason: "PROJECT-DENY"
                platforms:
                  claude:
                    pre_tool_use: [project-deny]
                native_event_aliases:
                  claude:
                    PreToolUse: pre_tool_use
                """.formatted(pattern);
    }
}
