package dev.agentwarden.cli;

import dev.agentwarden.testing.WardenProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A project with a manifest in force and a home of its own under a test's temporary directory, and
 * the packaged jar run in that project as a user of that home: {@code tmp/project} with
 * {@code .warden/manifest.yaml}, {@code tmp/home} as {@code HOME}, {@code tmp/cache} as
 * {@code WARDEN_CACHE_DIR}.
 */
final class JarProject {
    final Path project;
    final Path home;
    private final Map<String, String> env = new HashMap<>();

    JarProject(Path tmp, String manifest) throws IOException {
        project = Files.createDirectories(tmp.resolve("project"));
        home = Files.createDirectories(tmp.resolve("home"));
        Files.createDirectories(project.resolve(".warden"));
        Files.writeString(project.resolve(".warden/manifest.yaml"), manifest);
        env.put("HOME", home.toString());
        env.put("WARDEN_CACHE_DIR", tmp.resolve("cache").toString());
    }

    /** The same project, every run also given {@code name=value}. */
    JarProject with(String name, String value) {
        env.put(name, value);
        return this;
    }

    /** The environment every run gets. */
    Map<String, String> env() {
        return Map.copyOf(env);
    }

    /** {@code warden args…} through the jar, in the project. */
    WardenProcess.Result warden(String... args) throws IOException, InterruptedException {
        return warden(Map.of(), args);
    }

    /** {@code warden args…} through the jar, in the project, with {@code extra} added to the environment. */
    WardenProcess.Result warden(Map<String, String> extra, String... args) throws IOException, InterruptedException {
        Map<String, String> e = new HashMap<>(env);
        e.putAll(extra);
        return WardenProcess.run(List.of("-Dwarden.home=" + WardenProcess.home().toAbsolutePath()), List.of(args), e,
                new byte[0], project);
    }
}
