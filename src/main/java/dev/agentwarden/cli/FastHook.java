package dev.agentwarden.cli;

import dev.agentwarden.host.Host;
import dev.agentwarden.install.HookLauncher;
import dev.agentwarden.install.HookCommand;
import dev.agentwarden.install.HostSetup;
import dev.agentwarden.install.HostSetups;
import dev.agentwarden.io.CacheDir;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The compiled hook client ({@code bin/warden build-hook}): where a C compiler exists, installed
 * hooks of the hosts that run commands through a POSIX shell ({@link Host#hookShell}) run it instead
 * of the bash launcher, behind a test that falls back to {@code bin/warden} when it is gone
 * ({@link HookCommand}); it hands whatever it cannot answer to {@code bin/warden}. Without a
 * compiler (or when the build fails), and for other hosts, hooks run {@code bin/warden}.
 */
final class FastHook {
    private FastHook() {
    }

    /**
     * The launcher {@code host}'s hooks should run: a {@link HookLauncher#fast} pair when the host
     * runs commands through a shell and the hook can be built (or, for a dry run, a compiler
     * exists), else {@code launcher}.
     */
    static HookLauncher launcherFor(String host, Path launcher, boolean dryRun, PrintWriter out) {
        HostSetup setup = HostSetups.byId(host);
        if (setup == null || !setup.hookShell()) {
            return HookLauncher.plain(launcher.toString());
        }
        if (dryRun) {
            Path hook = path(launcher);
            return Files.isExecutable(hook) || compilerOnPath() ? HookLauncher.fast(hook.toString(), launcher.toString())
                    : HookLauncher.plain(launcher.toString());
        }
        String built = build(launcher, out);
        return built.equals(launcher.toString()) ? HookLauncher.plain(built) : HookLauncher.fast(built, launcher.toString());
    }

    /**
     * Where {@code bin/warden build-hook} puts the hook for the checkout of {@code launcher}, or the one
     * a release ships prebuilt ({@code lib/hook/bin/warden}).
     */
    static Path path(Path launcher) {
        Path home = launcher.toAbsolutePath().getParent().getParent();
        Path shipped = home.resolve("lib/hook/bin/warden");
        if (Files.isRegularFile(home.resolve("lib/warden.jar")) && Files.isExecutable(shipped)) {
            return shipped;
        }
        Path cache = CacheDir.root(System.getenv()).toAbsolutePath();
        return cache.resolve("hook").resolve(home.toString().replace('/', '_')).resolve("bin/warden");
    }

    private static boolean compilerOnPath() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && (Files.isExecutable(Path.of(dir, "cc")) || Files.isExecutable(Path.of(dir, "gcc")))) {
                return true;
            }
        }
        return false;
    }

    /** The launcher hooks should run: the compiled client's path, or {@code launcher} itself. */
    static String build(Path launcher, PrintWriter out) {
        Path stdout = null;
        Path stderr = null;
        try {
            stdout = Files.createTempFile("warden-build-hook", ".out");
            stderr = Files.createTempFile("warden-build-hook", ".err");
            // Output goes to files, so a build that hangs is bounded by the wait below, not by a read.
            Process p = new ProcessBuilder(launcher.toString(), "build-hook")
                    .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
            p.getOutputStream().close();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                out.println("compiled hook: build timed out; hooks run " + launcher);
                return launcher.toString();
            }
            String path = Files.readString(stdout, StandardCharsets.UTF_8).strip();
            String why = Files.readString(stderr, StandardCharsets.UTF_8).strip();
            if (p.exitValue() == 0 && path.startsWith("/") && path.endsWith("/bin/warden") && Files.isExecutable(Path.of(path))) {
                out.println("compiled hook: " + path + " (falls back to " + launcher + ")");
                return path;
            }
            out.println("compiled hook: none (" + (why.isEmpty() ? "build failed" : why.replace("warden: ", "")) + ")");
        } catch (IOException e) {
            out.println("compiled hook: none (" + e.getMessage() + "); hooks run " + launcher);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            deleteQuietly(stdout);
            deleteQuietly(stderr);
        }
        return launcher.toString();
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // a temporary file left behind costs nothing
            }
        }
    }
}
