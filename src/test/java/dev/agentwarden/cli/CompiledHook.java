package dev.agentwarden.cli;

import dev.agentwarden.testing.WardenProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

/**
 * The compiled hook client of this checkout ({@code bin/warden build-hook}), built once per test JVM
 * and copied into a case's own cache, for cases where install builds it only on the way to what they
 * test (a user- or local-scope install). Install then finds it current, as on a machine that built it
 * before, and keeps it instead of compiling it again (a JVM and a static C build per install).
 * {@code InstallCommandIT.install_default_withACompiler_runsTheCompiledHookWithTheLauncherBehindIt} and
 * {@code FastHookIT} still build it from nothing.
 */
final class CompiledHook {
    private static Path built;
    private static boolean tried;

    private CompiledHook() {
    }

    /**
     * Puts the compiled hook where {@code bin/warden build-hook} run with {@code WARDEN_CACHE_DIR=cache}
     * would, in directories private to this user as the launcher makes them; nothing when no C compiler
     * could build one (install then finds none, as before).
     */
    static void seed(Path cache) throws IOException, InterruptedException {
        Path hook = built();
        if (hook == null) {
            return;
        }
        Path target = hookPath(cache);
        for (Path dir = target.getParent(); !dir.equals(cache.getParent()); dir = dir.getParent()) {
            Files.createDirectories(dir);
        }
        for (Path dir = target.getParent(); !dir.equals(cache.getParent()); dir = dir.getParent()) {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        }
        WardenProcess.copyExecutable(hook, target);
    }

    /** Where {@code bin/warden build-hook} puts this checkout's hook under {@code cache}. */
    static Path hookPath(Path cache) {
        return cache.resolve("hook").resolve(WardenProcess.home().toAbsolutePath().normalize().toString().replace('/', '_'))
                .resolve("bin/warden");
    }

    private static synchronized Path built() throws IOException, InterruptedException {
        if (!tried) {
            tried = true;
            Path dir = Files.createTempDirectory("warden-it-compiled-hook");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    WardenProcess.deleteTree(dir);
                } catch (IOException ignored) {
                    // a temporary directory left behind
                }
            }));
            Path cache = dir.resolve("cache");
            WardenProcess.Result r = WardenProcess.runLauncher(List.of("build-hook"),
                    Map.of("HOME", dir.toString(), "WARDEN_CACHE_DIR", cache.toString()), new byte[0], dir);
            Path hook = hookPath(cache);
            built = r.exitCode() == 0 && r.stdout().strip().equals(hook.toString()) && Files.isExecutable(hook) ? hook : null;
        }
        return built;
    }
}
