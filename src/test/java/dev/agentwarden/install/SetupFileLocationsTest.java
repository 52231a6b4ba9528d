package dev.agentwarden.install;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.host.SetupFileLocation;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Each host's {@link Host#setupFiles} (what {@code protect-warden} reads, built with the host's record) name
 * exactly the files its {@link HostSetup}'s installers write, at every scope, and its trust gate reads
 * ({@link HostTrustGate#decidingFiles}), for every project root and environment below: the two cannot drift.
 * A file is compared as {@code protect-warden} compares it: a project's file by its path below the project
 * root, any other by the one file the environment puts there.
 */
class SetupFileLocationsTest {
    private static final List<Path> ROOTS = List.of(Path.of("/warden-project-probe"), Path.of("/srv/work/app"));

    /** The variables any installer or trust gate reads for where its files lie. */
    private static final List<String> VARIABLES = List.of("CODEX_HOME", "QWEN_HOME", "COPILOT_HOME", "CLINE_DIR",
            "XDG_CONFIG_HOME", "GEMINI_CLI_TRUSTED_FOLDERS_PATH");

    /** Environments: home set, unset and empty; each variable absent, set, empty, blank, padded and relative. */
    private static List<Map<String, String>> environments() {
        return List.of(Map.of("HOME", "/home/u"), Map.of(), Map.of("HOME", ""),
                withEach("/elsewhere/dir"), withEach(""), withEach("   "), withEach(" /padded/dir "), withEach("relative/dir"));
    }

    private static Map<String, String> withEach(String value) {
        Map<String, String> env = new HashMap<>(Map.of("HOME", "/home/u"));
        for (String v : VARIABLES) {
            env.put(v, value.isBlank() ? value : value.replace("dir", v.toLowerCase()));
        }
        return env;
    }

    @Test
    void everyHost_setupFiles_nameWhatItsInstallersWriteAndItsGateReads() {
        for (Host host : Hosts.ALL) {
            HostSetup setup = HostSetups.of(host);
            assertThat(setup).as("setup of %s", host.id()).isNotNull();
            for (Path root : ROOTS) {
                for (Map<String, String> env : environments()) {
                    TreeSet<String> written = new TreeSet<>();
                    for (Installer installer : setup.installers().values()) {
                        written.add(key(installer.settingsFile(root, env), root));
                    }
                    TreeSet<String> read = new TreeSet<>();
                    if (setup.trustGate() != null) {
                        for (Path file : setup.trustGate().decidingFiles(env)) {
                            read.add(key(file, root));
                        }
                    }
                    assertThat(located(host, false, root, env)).as("%s's installers' files, root %s, env %s", host.id(),
                            root, env).isEqualTo(written);
                    assertThat(located(host, true, root, env)).as("files %s's trust gate reads, root %s, env %s",
                            host.id(), root, env).isEqualTo(read);
                }
            }
        }
    }

    @Test
    void everyHost_setupFiles_recogniseTheFilesItsInstallersWrite() {
        Path root = Path.of("/srv/work/app");
        for (Host host : Hosts.ALL) {
            for (Map<String, String> env : environments()) {
                for (Installer installer : HostSetups.of(host).installers().values()) {
                    Path file = installer.settingsFile(root, env).toAbsolutePath().normalize();
                    assertThat(host.isSetupFile(file, env, false)).as("%s recognises %s, env %s", host.id(), file, env)
                            .isTrue();
                }
            }
        }
    }

    @Test
    void projectLocation_matchesItsPathBelowAnyDirectory_homeLocationOnlyWhereTheEnvironmentPutsIt() {
        SetupFileLocation project = SetupFileLocation.inProject(".codex/hooks.json");
        SetupFileLocation home = SetupFileLocation.inHome(".codex/hooks.json").unless("CODEX_HOME", "hooks.json");

        assertThat(project.matches(Path.of("/any/where/.codex/hooks.json"), Map.of())).isTrue();
        assertThat(project.matches(Path.of("/any/where/.codex/hooks.json.bak"), Map.of())).isFalse();
        assertThat(home.matches(Path.of("/home/u/.codex/hooks.json"), Map.of("HOME", "/home/u"))).isTrue();
        assertThat(home.matches(Path.of("/home/u/.codex/hooks.json"), Map.of("HOME", "/home/u", "CODEX_HOME", "/c")))
                .isFalse();
        assertThat(home.matches(Path.of("/c/hooks.json"), Map.of("HOME", "/home/u", "CODEX_HOME", "/c"))).isTrue();
    }

    private static TreeSet<String> located(Host host, boolean decidingTrust, Path root, Map<String, String> env) {
        TreeSet<String> out = new TreeSet<>();
        for (SetupFileLocation location : host.setupFiles()) {
            if (location.decidesTrust() == decidingTrust) {
                out.add(location.base() == SetupFileLocation.Base.PROJECT ? "project " + Path.of(location.path())
                        : key(location.file(root, env), root));
            }
        }
        return out;
    }

    /** How protect-warden tells a file: by its path below {@code root} when it lies there, else by the file itself. */
    private static String key(Path file, Path root) {
        return file.startsWith(root) ? "project " + root.relativize(file) : "file " + file.toAbsolutePath().normalize();
    }
}
