package dev.agentwarden.e2e;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A child process run to completion: stdin from {@code /dev/null}, stdout and stderr to files (so a
 * chatty child can never block on a full pipe), a wall-clock limit after which the whole process
 * tree is killed, and an exact environment when one is given.
 */
final class Command {
    private Command() {
    }

    /** How a run ended. {@code exitCode} is -1 when the limit was hit. */
    record Result(int exitCode, String stdout, String stderr, long millis, boolean timedOut) {
        boolean ok() {
            return exitCode == 0 && !timedOut;
        }

        /** The last lines of stderr (or stdout), for error messages. */
        String tail() {
            String text = stderr.isBlank() ? stdout : stderr;
            String[] lines = text.strip().split("\n");
            return String.join("\n", List.of(lines).subList(Math.max(0, lines.length - 8), lines.length));
        }
    }

    /** Runs {@code command} in {@code dir}; {@code env} replaces the inherited environment when not null. */
    static Result run(List<String> command, Path dir, Map<String, String> env, Duration limit) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
        if (env != null) {
            pb.environment().clear();
            pb.environment().putAll(env);
        }
        Path out = Files.createTempFile("e2e-out", ".txt");
        Path err = Files.createTempFile("e2e-err", ".txt");
        try {
            pb.redirectInput(new File("/dev/null")).redirectOutput(out.toFile()).redirectError(err.toFile());
            long start = System.nanoTime();
            Process process = pb.start();
            boolean finished;
            try {
                finished = process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                finished = false;
            }
            if (!finished) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            return new Result(finished ? process.exitValue() : -1, Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8), millis, !finished);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** The first executable named {@code name} on {@code $PATH}. */
    static Optional<Path> onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate.toAbsolutePath());
            }
        }
        return Optional.empty();
    }
}
