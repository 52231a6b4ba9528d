package dev.agentwarden.inventory;

import dev.agentwarden.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** MCP over stdio: newline-delimited JSON-RPC on a child process's standard streams. */
final class StdioChannel implements McpChannel {
    /** Longest line (one message) accepted from a server. */
    static final int MAX_LINE_BYTES = 8 * 1024 * 1024;
    /** How much of the server's stderr is kept for a failure reason. */
    static final int STDERR_TAIL = 2048;
    private static final long EXIT_GRACE_MS = 1000;

    private final Process process;
    private final OutputStream stdin;
    private final MessageQueue queue = new MessageQueue();
    private final StringBuilder stderrTail = new StringBuilder();
    private Thread stderrReader;

    private StdioChannel(Process process) {
        this.process = process;
        this.stdin = process.getOutputStream();
    }

    /** Starts the server process. */
    static StdioChannel start(McpServerConfig server, Path defaultCwd) throws McpFailure {
        List<String> command = new ArrayList<>();
        command.add(server.command());
        command.addAll(server.args());
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.directory((server.cwd() == null ? defaultCwd : defaultCwd.resolve(server.cwd())).toFile());
        builder.environment().putAll(server.env());
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new McpFailure(ServerStatus.START_FAILED, "cannot start " + server.command() + ": " + e.getMessage());
        }
        StdioChannel channel = new StdioChannel(process);
        channel.startReaders();
        return channel;
    }

    private void startReaders() {
        Thread out = new Thread(this::readStdout, "mcp-stdout");
        out.setDaemon(true);
        out.start();
        stderrReader = new Thread(this::drainStderr, "mcp-stderr");
        stderrReader.setDaemon(true);
        stderrReader.start();
    }

    private void readStdout() {
        try (InputStream in = process.getInputStream()) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                for (int i = 0; i < n; i++) {
                    byte b = buffer[i];
                    if (b == '\n') {
                        String text = line.toString(StandardCharsets.UTF_8).strip();
                        line.reset();
                        if (!text.isEmpty()) {
                            queue.offerText(text);
                        }
                    } else if (line.size() >= MAX_LINE_BYTES) {
                        queue.fail(new McpFailure(ServerStatus.GARBAGE, "a line longer than " + MAX_LINE_BYTES + " bytes"));
                        return;
                    } else {
                        line.write(b);
                    }
                }
            }
            String exit = exitNote();
            awaitStderr();
            queue.fail(new McpFailure(ServerStatus.START_FAILED, "server closed its output" + exit + stderrNote()));
        } catch (IOException e) {
            queue.fail(new McpFailure(ServerStatus.START_FAILED, "reading the server failed: " + e.getMessage()));
        }
    }

    private void drainStderr() {
        try (InputStream in = process.getErrorStream()) {
            byte[] buffer = new byte[4096];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                synchronized (stderrTail) {
                    stderrTail.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                    if (stderrTail.length() > STDERR_TAIL) {
                        stderrTail.delete(0, stderrTail.length() - STDERR_TAIL);
                    }
                }
            }
        } catch (IOException ignored) {
            // The process is gone; what was read is kept.
        }
    }

    private String exitNote() {
        try {
            if (process.waitFor(200, TimeUnit.MILLISECONDS)) {
                return " (exit " + process.exitValue() + ")";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "";
    }

    /** Waits briefly for the rest of an exiting server's stderr, so the reason carries what it said last. */
    private void awaitStderr() {
        try {
            stderrReader.join(EXIT_GRACE_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String stderrNote() {
        synchronized (stderrTail) {
            String tail = stderrTail.toString().strip();
            return tail.isEmpty() ? "" : "; stderr: " + MessageQueue.excerpt(tail.substring(Math.max(0, tail.length() - 200)));
        }
    }

    @Override
    public void send(Map<String, Object> message) throws IOException {
        try {
            stdin.write((Json.write(message) + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        } catch (IOException e) {
            // A server that exited closed its input: the next receive reports why (its exit status and stderr),
            // which says more than the broken pipe.
            if (!exitsWithinGrace()) {
                throw e;
            }
        }
    }

    boolean exitsWithinGrace() {
        try {
            return process.waitFor(EXIT_GRACE_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public Map<String, Object> receive(long deadlineNanos) throws McpFailure, InterruptedException {
        return queue.take(deadlineNanos);
    }

    /** Closes stdin (the spec's shutdown), then terminates, then kills, each after a grace period. */
    @Override
    public void close() {
        List<ProcessHandle> children = process.descendants().toList();
        try {
            stdin.close();
        } catch (IOException ignored) {
            // Already gone.
        }
        try {
            if (!process.waitFor(EXIT_GRACE_MS, TimeUnit.MILLISECONDS)) {
                process.destroy();
                if (!process.waitFor(EXIT_GRACE_MS, TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(EXIT_GRACE_MS, TimeUnit.MILLISECONDS);
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        for (ProcessHandle child : children) {
            child.destroyForcibly();
        }
    }
}
