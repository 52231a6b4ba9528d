package dev.agentwarden.decision;

import dev.agentwarden.concern.Replay;
import dev.agentwarden.event.WorkspaceRoot;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.ledger.UtcTime;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * The decision log: one line per dispatch in {@code .warden/state/decisions/<YYYY-MM>.jsonl}
 * (month of the dispatch, UTC), under the project's state rules ({@link StateFiles}: no link
 * followed, regular files only, nothing outside the project).
 *
 * <p>No lock: each line is written with one {@code write(2)} on a file opened {@code O_APPEND}. On
 * a local file system the kernel moves to the end and writes as one step under the file's lock, so
 * lines from any number of writers never interleave or overwrite one another (the ledger locks
 * because it reads its tail to chain hashes; a decision line depends on nothing before it). A line
 * is bounded (reasons cut at {@link DecisionLine#MAX_TEXT_CHARS}, a bounded chain), so one call
 * writes it whole. Network file systems do not keep {@code O_APPEND} atomic; state there is
 * unsupported. A reader skips a last line still being written (no newline yet).
 *
 * <p>A long-lived server keeps segments open ({@link OpenSegments}): the same rules, checked once
 * per open, and per line that the path still names the open file. Each line written through them
 * also goes to their {@link DecisionTap}, if any (the live OpenTelemetry export), after it is on disk.
 *
 * <p>The line that creates a segment (a project's first decision, or its first of a month) also adds
 * the project to the user's {@link ProjectRegistry}, for {@code --all-projects}.
 *
 * <p>A failed write never changes the answer: the response gets a stderr note instead.
 * {@code WARDEN_DECISION_LOG=off} turns the log off; replay mode ({@code WARDEN_REPLAY=1}) writes
 * no state, this log included.
 */
public final class DecisionLog {
    /** Transport: {@code warden dispatch} in its own JVM (the launcher found no resident). */
    public static final String OWN_JVM = "own_jvm";
    /** Transport: forwarded by the launcher to the resident server ({@code /forward}). */
    public static final String RESIDENT = "resident";
    /** Transport: posted by a client to {@code warden serve} ({@code /dispatch}). */
    public static final String SERVE = "serve";

    private DecisionLog() {
    }

    /** The directory of the monthly segments of a project. */
    public static Path dir(String root) {
        return WorkspaceRoot.stateHome(root).resolve("state").resolve("decisions");
    }

    /**
     * Appends the decision for {@code draft}, answered with {@code response}; returns the response,
     * with a stderr note when the line could not be written. Never throws.
     *
     * @param segments the segments a long-lived server keeps open, or {@code null} to open the file for this line
     */
    public static HostResponse append(DecisionDraft draft, HostResponse response, Map<String, String> env,
                                      OpenSegments segments) {
        if (draft.root == null || "off".equals(env.get("WARDEN_DECISION_LOG")) || Replay.active(env)) {
            return response;
        }
        try {
            draft.traceparent = DecisionLine.traceparent(env.get("TRACEPARENT"));
            String line = DecisionLine.build(draft, response, System.nanoTime());
            byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
            String month = UtcTime.month(draft.epochMillis);
            boolean created = segments != null ? segments.write(draft.root, month, bytes)
                    : write(draft.root, month, bytes);
            if (segments != null) {
                segments.recorded(draft.root, line);
            }
            if (created) {
                if (draft.retentionDays > 0) {
                    response = pruneExpired(draft.root, draft.epochMillis, draft.retentionDays, response);
                }
                return ProjectRegistry.add(draft.root, env, response);
            }
            return response;
        } catch (IOException | RuntimeException e) {
            return response.withStderr("warden: decision log not written (" + e.getMessage()
                    + "); the hook answer is unchanged");
        }
    }

    /**
     * The managed retention ({@code retention} days), enforced as a segment is created (a month
     * rolls): every segment lying wholly before {@code days} days before {@code nowMillis} is removed.
     * A failure is a note, never a changed answer.
     */
    static HostResponse pruneExpired(String root, long nowMillis, int days, HostResponse response) {
        try {
            DecisionPrune.before(root, cutoffMonth(nowMillis, days), false);
            return response;
        } catch (IOException | RuntimeException e) {
            return response.withStderr("warden: decision log retention (" + days + " days) not applied: " + e.getMessage());
        }
    }

    /** The month of the day {@code days} days before {@code nowMillis}: segments of earlier months lie wholly before it. */
    public static String cutoffMonth(long nowMillis, int days) {
        return UtcTime.month(nowMillis - days * 86_400_000L);
    }

    /** Appends one whole line to the segment of {@code month}; returns whether the segment was created for it. */
    static boolean write(String root, String month, byte[] line) throws IOException {
        Path project = Path.of(root);
        Path file = dir(root).resolve(month + ".jsonl");
        StateFiles.Opened opened = StateFiles.openAppendIdentified(project, file);
        try (FileChannel ch = opened.channel()) {
            StateFiles.writeFully(ch, ByteBuffer.wrap(line), -1);
        }
        return opened.fileKey() == null;
    }
}
