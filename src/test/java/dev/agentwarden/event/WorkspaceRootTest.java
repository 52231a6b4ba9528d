package dev.agentwarden.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link WorkspaceRoot#resolve}: which source wins, and how a relative choice is read against the
 * caller's working directory.
 */
class WorkspaceRootTest {
    private static final Path WD = Path.of("/home/dev/launcher");

    /** A host's project-directory variables, strongest first. */
    private static final List<String> VARS = List.of("CLAUDE_PROJECT_DIR", "CURSOR_PROJECT_DIR", "GEMINI_PROJECT_DIR");

    static Stream<Arguments> fromWorkingDir() {
        return Stream.of(
                Arguments.of("explicitRelative_againstWorkingDir", "proj", Map.of(), Map.of(), "/home/dev/launcher/proj"),
                Arguments.of("explicitAbsolute_kept", "/srv/proj", Map.of(), Map.of(), "/srv/proj"),
                Arguments.of("workspaceRootRelative_againstWorkingDir", null, Map.of("workspace_root", "ws"), Map.of(),
                        "/home/dev/launcher/ws"),
                Arguments.of("projectRootAbsolute_kept", null, Map.of("project_root", "/srv/pr"), Map.of(), "/srv/pr"),
                Arguments.of("claudeProjectDirRelative_againstWorkingDir", null, Map.of(),
                        Map.of("CLAUDE_PROJECT_DIR", "../claude"), "/home/dev/launcher/../claude"),
                Arguments.of("claudeProjectDirAbsolute_kept", null, Map.of(), Map.of("CLAUDE_PROJECT_DIR", "/srv/claude"),
                        "/srv/claude"),
                Arguments.of("payloadCwdRelative_againstWorkingDir", null, Map.of("cwd", "sub/dir"), Map.of(),
                        "/home/dev/launcher/sub/dir"),
                Arguments.of("payloadCwdAbsolute_kept", null, Map.of("cwd", "/srv/cwd"), Map.of(), "/srv/cwd"),
                Arguments.of("nothingChosen_workingDir", null, Map.of(), Map.of(), "/home/dev/launcher"),
                Arguments.of("emptyValues_skipped_workingDir", "", Map.of("workspace_root", "", "cwd", ""),
                        Map.of("WARDEN_PROJECT_DIR", "", "CLAUDE_PROJECT_DIR", ""), "/home/dev/launcher"),
                Arguments.of("nonStringPayloadValues_skipped", null, Map.of("workspace_root", 7L, "cwd", false),
                        Map.of(), "/home/dev/launcher"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fromWorkingDir")
    void resolve_withWorkingDir(String name, String explicitDir, Map<String, Object> payload, Map<String, String> env,
                                String expected) {
        assertThat(WorkspaceRoot.resolve(explicitDir, payload, env, WD, VARS)).isEqualTo(expected);
    }

    /** Every source, strongest first: the explicit dir, payload keys ({@code payload:}), env vars ({@code env:}). */
    private static final String[] SOURCES = {"explicit", "payload:workspace_root", "payload:project_root",
        "env:WARDEN_PROJECT_DIR", "env:CLAUDE_PROJECT_DIR", "env:CURSOR_PROJECT_DIR", "env:GEMINI_PROJECT_DIR",
        "payload:cwd"};

    static Stream<Arguments> precedence() {
        return IntStream.rangeClosed(0, SOURCES.length).mapToObj(strongest -> Arguments.of(strongest,
                strongest < SOURCES.length ? "/root/of/" + SOURCES[strongest] : WD.toString()));
    }

    /** With every source from {@code strongest} on set (each to its own root), the strongest one wins. */
    @ParameterizedTest(name = "sources from #{0} on -> {1}")
    @MethodSource("precedence")
    void resolve_precedence_strongestSetSourceWins(int strongest, String expected) {
        String explicit = null;
        Map<String, Object> payload = new LinkedHashMap<>();
        Map<String, String> env = new LinkedHashMap<>();
        for (int i = strongest; i < SOURCES.length; i++) {
            String source = SOURCES[i];
            String root = "/root/of/" + source;
            if (source.equals("explicit")) {
                explicit = root;
            } else if (source.startsWith("payload:")) {
                payload.put(source.substring("payload:".length()), root);
            } else {
                env.put(source.substring("env:".length()), root);
            }
        }

        assertThat(WorkspaceRoot.resolve(explicit, payload, env, WD, VARS)).isEqualTo(expected);
        assertThat(WorkspaceRoot.resolve(explicit, payload, env, VARS)).as("same order without a working dir")
                .isEqualTo(strongest < SOURCES.length ? expected : System.getProperty("user.dir"));
    }

    @Test
    void resolve_noWorkingDir_relativeChoiceStaysRelative() {
        assertThat(WorkspaceRoot.resolve("proj", Map.of(), Map.of(), VARS)).isEqualTo("proj");
        // a payload's cwd is where the walk starts: from "sub" of this (git) checkout it finds the checkout
        assertThat(WorkspaceRoot.resolve(null, Map.of("cwd", "sub"), Map.of(), null, VARS))
                .isEqualTo(System.getProperty("user.dir"));
    }

    @Test
    void resolve_noWorkingDir_nothingChosen_jvmWorkingDir() {
        assertThat(WorkspaceRoot.resolve(null, Map.of(), Map.of(), null, VARS))
                .isEqualTo(Path.of(System.getProperty("user.dir")).toString());
    }

    @Test
    void stateHome_dotWardenUnderRoot() {
        assertThat(WorkspaceRoot.stateHome("/srv/proj")).isEqualTo(Path.of("/srv/proj/.warden"));
    }

    @Test
    void walkUp_nearestDotWardenWins_overGit_andWithinTheHostsProjectOnly(@TempDir Path tmp) throws Exception {
        Path proj = Files.createDirectories(tmp.resolve("proj"));
        Files.createDirectories(proj.resolve(".git"));
        Files.createDirectories(proj.resolve(".warden"));
        Path deep = Files.createDirectories(proj.resolve("src/deep"));
        Path pkg = Files.createDirectories(proj.resolve("packages/app"));
        Files.createDirectories(pkg.resolve(".warden"));
        Path pkgSrc = Files.createDirectories(pkg.resolve("src"));
        Map<String, String> home = Map.of("HOME", tmp.resolve("home").toString());

        assertThat(WorkspaceRoot.resolve(null, Map.of(), home, deep, VARS)).isEqualTo(proj.toString());
        assertThat(WorkspaceRoot.resolve(null, Map.of("cwd", deep.toString()), home, tmp, VARS)).isEqualTo(proj.toString());
        assertThat(WorkspaceRoot.resolve(null, Map.of(), Map.of("CLAUDE_PROJECT_DIR", proj.toString()), pkgSrc, VARS))
                .as("a package's own .warden/ inside the host's project").isEqualTo(pkg.toString());
        assertThat(WorkspaceRoot.resolve(null, Map.of(), Map.of("CLAUDE_PROJECT_DIR", "/elsewhere"), deep, VARS))
                .as("a start outside the host's project: the host's project").isEqualTo("/elsewhere");
        assertThat(WorkspaceRoot.resolve(null, Map.of(), Map.of("WARDEN_PROJECT_DIR", "/named"), deep, VARS))
                .as("a root named outright still wins").isEqualTo("/named");
    }

    @Test
    void walkUp_noDotWarden_hostVariableThenGitRootThenStart(@TempDir Path tmp) throws Exception {
        Path proj = Files.createDirectories(tmp.resolve("proj"));
        Files.writeString(proj.resolve(".git"), "gitdir: /somewhere/else\n");
        Path deep = Files.createDirectories(proj.resolve("src/deep"));
        Path loose = Files.createDirectories(tmp.resolve("loose/dir"));
        Map<String, String> home = Map.of("HOME", tmp.resolve("home").toString());

        assertThat(WorkspaceRoot.resolve(null, Map.of(), Map.of("HOME", "/h", "CLAUDE_PROJECT_DIR", "/claude"), deep, VARS))
                .isEqualTo("/claude");
        assertThat(WorkspaceRoot.resolve(null, Map.of(), home, deep, VARS)).as("a worktree's .git file counts")
                .isEqualTo(proj.toString());
        assertThat(WorkspaceRoot.resolve(null, Map.of(), home, loose, VARS)).isEqualTo(loose.toString());
    }

    @Test
    void walkUp_dotWardenInHome_isNotTheProjectOfADirectoryBelowIt(@TempDir Path tmp) throws Exception {
        Path home = Files.createDirectories(tmp.resolve("home"));
        Files.createDirectories(home.resolve(".warden"));
        Path fresh = Files.createDirectories(home.resolve("fresh/src"));
        Map<String, String> env = Map.of("HOME", home.toString());

        assertThat(WorkspaceRoot.resolve(null, Map.of(), env, fresh, VARS)).isEqualTo(fresh.toString());
        assertThat(WorkspaceRoot.resolve(null, Map.of(), env, home, VARS)).as("started in home itself")
                .isEqualTo(home.toString());
    }
}
