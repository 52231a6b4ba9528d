package dev.agentwarden.dispatch;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The process a host started for one event, as a dispatch sees it: its environment and its
 * working directory.
 *
 * <p>{@link #thisProcess} is the one-shot case ({@code warden dispatch} in its own JVM): relative
 * paths resolve against this JVM's working directory and concern processes inherit this JVM's
 * environment. {@link #forwarded} is a launcher that handed its event to the resident server:
 * relative paths resolve against the launcher's directory and concern processes get exactly the
 * launcher's environment, so a forwarded event runs as it would have in its own JVM. Either way a
 * relative path is made absolute, so both give the same answer, byte for byte.
 *
 * @param env        the variables Warden reads (role, fail mode, cache dir, project dir, ...)
 * @param workingDir the caller's absolute working directory
 * @param childEnv   the whole environment for concern processes, or {@code null} to inherit this JVM's
 * @param commandPrefix what a concern process's command runs under, so that it gets the caller's
 *                      umask, nice value and resource limits where they differ from this JVM's;
 *                      empty for none
 */
public record Caller(Map<String, String> env, Path workingDir, Map<String, String> childEnv, List<String> commandPrefix) {
    public Caller {
        if (!workingDir.isAbsolute()) {
            throw new IllegalArgumentException("working directory '" + workingDir + "' is not absolute");
        }
        commandPrefix = List.copyOf(commandPrefix);
    }

    public Caller(Map<String, String> env, Path workingDir, Map<String, String> childEnv) {
        this(env, workingDir, childEnv, List.of());
    }

    public static Caller thisProcess(Map<String, String> env) {
        return new Caller(env, Path.of("").toAbsolutePath(), null);
    }

    /** A launcher elsewhere: {@code env} is its whole environment, {@code workingDir} absolute. */
    public static Caller forwarded(Map<String, String> env, Path workingDir) {
        return new Caller(env, workingDir, env);
    }

    /** The same caller, its concern processes run under {@code prefix}. */
    public Caller withCommandPrefix(List<String> prefix) {
        return new Caller(env, workingDir, childEnv, prefix);
    }

    /** {@code path} as the caller means it: resolved against its working directory. */
    String resolve(String path) {
        return path == null ? null : workingDir.resolve(path).toString();
    }
}
