package dev.agentwarden.dispatch;

import dev.agentwarden.concern.ConcernResult;
import dev.agentwarden.concern.Decision;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.trust.ScriptTrust;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a command concern as a child process: the envelope on stdin, a wall-clock timeout, and a
 * cap on what it may print. Exit 0 allow, 1 block, 2 warn; anything else, a crash, a missing
 * script or a timeout is {@link Decision#ERROR}. Stdout may be JSON
 * {@code {decision, reason, additional_context, context}} or plain text; on exit 0 an
 * {@code updated_input} object rewrites the tool input.
 *
 * <p>A script of a project manifest runs only while it hashes as the user trusted it
 * ({@link ScriptTrust}); a changed one does not start and is an {@link Decision#ERROR}, so the
 * concern's {@code fail_closed} decides (block if set, else allow), with a note on stderr.
 */
final class ExternalConcern {
    /** Bytes kept from each of the child's stdout and stderr; the rest is read and dropped. */
    static final int OUTPUT_CAP_BYTES = 64 * 1024;
    /** Characters of non-JSON stdout kept as the message. */
    static final int RAW_TEXT_CHARS = 500;

    private ExternalConcern() {
    }

    /**
     * @param baseEnv  the child's whole environment, or {@code null} to inherit this JVM's
     * @param extraEnv variables set on top of it
     */
    static ConcernResult run(ConcernSpec spec, Path workspaceRoot, byte[] envelope, Map<String, String> baseEnv,
                             Map<String, String> extraEnv) {
        return run(spec, workspaceRoot, envelope, baseEnv, extraEnv, ScriptTrust.ANY, List.of());
    }

    /**
     * {@link #run(ConcernSpec, Path, byte[], Map, Map)}, starting the script only if {@code trust} allows it.
     *
     * @param commandPrefix what the command runs under ({@link Caller#commandPrefix})
     */
    static ConcernResult run(ConcernSpec spec, Path workspaceRoot, byte[] envelope, Map<String, String> baseEnv,
                             Map<String, String> extraEnv, ScriptTrust trust, List<String> commandPrefix) {
        return run(spec, workspaceRoot, envelope, baseEnv, extraEnv, trust, commandPrefix, Call.UNNAMED);
    }

    /**
     * What agent-config's dispatcher tells a concern beyond the envelope.
     *
     * @param platform     appended to the argv as {@code --platform <host>}, or {@code null} for none
     * @param sessionStart stdout's {@code context} key counts only on session_start
     */
    record Call(String platform, boolean sessionStart) {
        static final Call UNNAMED = new Call(null, false);
    }

    /** {@link #run(ConcernSpec, Path, byte[], Map, Map, ScriptTrust, List)} as agent-config calls a concern. */
    static ConcernResult run(ConcernSpec spec, Path workspaceRoot, byte[] envelope, Map<String, String> baseEnv,
                             Map<String, String> extraEnv, ScriptTrust trust, List<String> commandPrefix, Call call) {
        String untrusted = trust.refusal(spec, workspaceRoot);
        if (untrusted != null) {
            return ConcernResult.error(untrusted);
        }
        Path script = workspaceRoot.resolve(spec.script());
        if (!Files.exists(script)) {
            return ConcernResult.error("script_not_found: " + script);
        }
        if (!Files.isExecutable(script)) {
            return ConcernResult.error("permission_denied: " + script + " is not executable");
        }
        List<String> command = new ArrayList<>(commandPrefix);
        command.add(script.toString());
        command.addAll(spec.args());
        if (call.platform() != null) {
            command.add("--platform");
            command.add(call.platform());
        }
        ProcessBuilder pb = new ProcessBuilder(command).directory(workspaceRoot.toFile());
        if (baseEnv != null) {
            pb.environment().clear();
            pb.environment().putAll(baseEnv);
        }
        pb.environment().putAll(extraEnv);
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            return ConcernResult.error("execution_failed: " + e.getMessage());
        }
        Drain out = new Drain(process.getInputStream());
        Drain err = new Drain(process.getErrorStream());
        out.start();
        err.start();
        new Feed(process.getOutputStream(), envelope).start();
        try {
            if (!process.waitFor(spec.timeoutMs(), TimeUnit.MILLISECONDS)) {
                kill(process);
                return ConcernResult.error("timeout after " + spec.timeoutMs() + " ms");
            }
            out.join(1000);
            err.join(1000);
        } catch (InterruptedException e) {
            kill(process);
            Thread.currentThread().interrupt();
            return ConcernResult.error("interrupted");
        }
        return interpret(process.exitValue(), out.text(), err.text(), out.overflowed() || err.overflowed(),
                call.sessionStart());
    }

    static ConcernResult interpret(int exitCode, String stdout, String stderr, boolean overflowed) {
        return interpret(exitCode, stdout, stderr, overflowed, false);
    }

    /**
     * A concern's answer read as agent-config's dispatcher reads it: the exit code decides (a
     * {@code decision} in stdout does not); the message is stdout's JSON {@code reason} (not blank)
     * or else stderr, then {@code additional_context} ({@code context} too on session_start) after a
     * blank line. Stdout that is not a JSON object is never the message. Exit 0 emits nothing but
     * a session_start's {@code context}, agent-config's context block: the session's opening
     * context, passed on as written.
     */
    static ConcernResult interpret(int exitCode, String stdout, String stderr, boolean overflowed, boolean sessionStart) {
        String reason = null;
        String context = null;
        String sessionContext = null;
        Object updated = null;
        String trimmed = stdout.strip();
        if (trimmed.startsWith("{")) {
            try {
                Map<String, Object> o = Json.parseObject(trimmed);
                reason = o.get("reason") instanceof String s && !s.isBlank() ? s : null;
                if (sessionStart && o.get("context") instanceof String s && !s.isBlank()) {
                    sessionContext = s;
                }
                Object ctx = o.get("additional_context");
                if (ctx == null && sessionStart) {
                    ctx = o.get("context");
                }
                context = ctx instanceof String s && !s.isBlank() ? s : null;
                updated = o.get("updated_input");
            } catch (JsonException e) {
                // not a JSON object: never the message
            }
        }
        if (reason == null && !stderr.isBlank()) {
            reason = clip(stderr.strip());
        }
        String message = join(reason, context);
        if (overflowed && message != null) {
            message = message + " [output over " + OUTPUT_CAP_BYTES + " bytes dropped]";
        }
        switch (exitCode) {
            case 0:
                if (updated instanceof Map<?, ?> m) {
                    return new ConcernResult(Decision.ALLOW, reason, sessionContext, exitCode, stringKeyed(m));
                }
                if (updated != null) {
                    return new ConcernResult(Decision.ERROR, "updated_input is not a JSON object", null, exitCode);
                }
                return new ConcernResult(Decision.ALLOW, null, sessionContext, exitCode);
            case 1:
                return new ConcernResult(Decision.BLOCK, message, null, exitCode);
            case 2:
                return new ConcernResult(Decision.WARN, message, null, exitCode);
            default:
                return new ConcernResult(Decision.ERROR, "exit code " + exitCode + (message == null ? "" : ": " + message),
                        null, exitCode);
        }
    }

    /** A JSON object's members under their keys as text. */
    private static Map<String, Object> stringKeyed(Map<?, ?> m) {
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
            out.put(String.valueOf(e.getKey()), e.getValue());
        }
        return out;
    }

    /** A reason and additional context as agent-config joins them: a blank line between. */
    static String join(String a, String b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : a + "\n\n" + b;
    }

    private static String clip(String s) {
        return s.length() <= RAW_TEXT_CHARS ? s : s.substring(0, RAW_TEXT_CHARS);
    }

    private static void kill(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    /**
     * Writes the envelope to a child's stdin from its own thread, so that a child that never reads
     * an envelope larger than the pipe buffer cannot hold the dispatcher past the timeout.
     */
    private static final class Feed extends Thread {
        private final OutputStream stdin;
        private final byte[] envelope;

        Feed(OutputStream stdin, byte[] envelope) {
            this.stdin = stdin;
            this.envelope = envelope;
            setDaemon(true);
        }

        @Override
        public void run() {
            try (stdin) {
                stdin.write(envelope);
            } catch (IOException ignored) {
                // a concern that does not read its stdin is allowed
            }
        }
    }

    /** Reads a child's stream to the end, keeping at most {@link #OUTPUT_CAP_BYTES}. */
    private static final class Drain extends Thread {
        private final InputStream in;
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        private volatile boolean overflowed;

        Drain(InputStream in) {
            this.in = in;
            setDaemon(true);
        }

        @Override
        public void run() {
            byte[] buf = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    int room = OUTPUT_CAP_BYTES - kept.size();
                    if (n > room) {
                        overflowed = true;
                    }
                    if (room > 0) {
                        kept.write(buf, 0, Math.min(n, room));
                    }
                }
            } catch (IOException ignored) {
                // the child went away; keep what was read
            }
        }

        String text() {
            synchronized (kept) {
                return kept.toString(StandardCharsets.UTF_8);
            }
        }

        boolean overflowed() {
            return overflowed;
        }
    }
}
