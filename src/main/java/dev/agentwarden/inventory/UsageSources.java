package dev.agentwarden.inventory;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.host.UsageFileLocation;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Usage records from where hosts write them ({@link Host.InventoryFiles#usageFiles}), each record carrying the
 * client id of the host whose {@link UsageFileLocation.Format} it is in:
 * <ul>
 * <li>{@link UsageFileLocation.Format#TRANSCRIPT}, Claude Code's transcripts ({@code transcript_path} in hook
 *     payloads): JSONL; a {@code user} line
 *     whose content is the prompt (not a tool result, not meta, not a sidechain) starts a turn of its
 *     {@code sessionId}; each {@code assistant} line carries {@code message.model},
 *     {@code message.usage} and the client {@code version}; lines of one message id repeat the same
 *     usage;
 * <li>{@link UsageFileLocation.Format#EVENT_STREAM}, Codex {@code exec --json} streams: {@code turn.started} starts a turn, {@code turn.completed}
 *     carries {@code usage}; the stream names neither model nor client version;
 * <li>{@link UsageFileLocation.Format#SESSION_EVENTS}, Copilot CLI session state
 *     ({@code $COPILOT_HOME/session-state/<id>/events.jsonl}, the
 *     {@code transcriptPath} of its hook payloads): envelopes {@code {id, timestamp, parentId, type,
 *     data}}; {@code session.start} names {@code data.sessionId} and {@code data.copilotVersion},
 *     {@code user.message} starts a turn, and each {@code assistant.usage} carries {@code data.model},
 *     {@code inputTokens}, {@code outputTokens}, {@code cacheReadTokens}, {@code cacheWriteTokens}
 *     and its {@code apiCallId} (the repeat key). This reader follows the session-event schema
 *     Copilot's SDKs publish; no captured session state of a real run with usage was available.
 * </ul>
 * Turns are counted per session within a file. A usage id seen before, in any file read by this
 * reader, marks the record a duplicate. Lines that are not JSON objects are returned as problems,
 * never dropped silently.
 */
public final class UsageSources {
    /** Longest line read. */
    static final int MAX_LINE_CHARS = 16 * 1024 * 1024;
    /** The client id of each shape's records, from the host that writes it. */
    private static final String TRANSCRIPT_CLIENT = clientOf(UsageFileLocation.Format.TRANSCRIPT);
    private static final String EVENT_STREAM_CLIENT = clientOf(UsageFileLocation.Format.EVENT_STREAM);
    private static final String SESSION_EVENTS_CLIENT = clientOf(UsageFileLocation.Format.SESSION_EVENTS);

    private final List<UsageRecord> records = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private final Map<String, String> firstSeen = new HashMap<>();

    public List<UsageRecord> records() {
        return records;
    }

    public List<String> problems() {
        return problems;
    }

    /** Reads one file; one that is not a regular file (a FIFO, a directory) is a problem, not read. */
    @SuppressWarnings("unchecked")
    public void read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            problems.add(file + ": not a regular file; not read");
            return;
        }
        long lineNo = 0;
        Map<String, Long> turns = new HashMap<>();
        String codexThread = null;
        String copilotSession = null;
        String copilotVersion = null;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                if (line.length() > MAX_LINE_CHARS) {
                    problems.add(file + ":" + lineNo + ": line longer than " + MAX_LINE_CHARS + " characters; skipped");
                    continue;
                }
                Map<String, Object> m;
                try {
                    m = Json.parseObject(line);
                } catch (JsonException e) {
                    problems.add(file + ":" + lineNo + ": not a JSON object (" + e.code() + ")");
                    continue;
                }
                Object type = m.get("type");
                Map<String, Object> data = m.get("data") instanceof Map<?, ?> d ? (Map<String, Object>) d : null;
                if ("user".equals(type) && isPrompt(m)) {
                    turns.merge(String.valueOf(m.get("sessionId")), 1L, Long::sum);
                } else if ("assistant".equals(type) && m.get("message") instanceof Map<?, ?> message
                        && message.get("usage") instanceof Map<?, ?> usage) {
                    String session = str(m.get("sessionId"));
                    add(file, lineNo, session, turn(turns, String.valueOf(session)), TRANSCRIPT_CLIENT, str(m.get("version")),
                            str(message.get("model")), (Map<String, Object>) usage, str(message.get("id")));
                } else if ("thread.started".equals(type)) {
                    codexThread = str(m.get("thread_id"));
                } else if ("turn.started".equals(type)) {
                    turns.merge(EVENT_STREAM_CLIENT, 1L, Long::sum);
                } else if ("turn.completed".equals(type) && m.get("usage") instanceof Map<?, ?> usage) {
                    add(file, lineNo, codexThread, turn(turns, EVENT_STREAM_CLIENT), EVENT_STREAM_CLIENT, null, null,
                            (Map<String, Object>) usage, null);
                } else if ("session.start".equals(type) && data != null) {
                    copilotSession = str(data.get("sessionId"));
                    copilotVersion = str(data.get("copilotVersion"));
                } else if ("user.message".equals(type) && data != null) {
                    turns.merge(SESSION_EVENTS_CLIENT, 1L, Long::sum);
                } else if ("assistant.usage".equals(type) && data != null) {
                    String callId = str(data.get("apiCallId"));
                    add(file, lineNo, copilotSession, turn(turns, SESSION_EVENTS_CLIENT), SESSION_EVENTS_CLIENT, copilotVersion,
                            str(data.get("model")),
                            data, callId == null ? str(data.get("providerCallId")) : callId);
                }
            }
        }
    }

    private void add(Path file, long lineNo, String session, long turn, String client, String clientVersion, String model,
                     Map<String, Object> usage, String usageId) {
        String at = file + ":" + lineNo;
        String first = usageId == null ? null : firstSeen.putIfAbsent(client + "\n" + usageId, at);
        records.add(new UsageRecord(file.toString(), lineNo, session, turn, client, clientVersion, model, usage, first));
    }

    /** The 0-based index of the session's current turn (0 before any prompt line). */
    private static long turn(Map<String, Long> turns, String session) {
        return Math.max(turns.getOrDefault(session, 0L) - 1, 0);
    }

    /** A user line that is a prompt: string content, or blocks none of which is a tool result. */
    private static boolean isPrompt(Map<String, Object> m) {
        if (Boolean.TRUE.equals(m.get("isSidechain")) || Boolean.TRUE.equals(m.get("isMeta"))
                || !(m.get("message") instanceof Map<?, ?> message)) {
            return false;
        }
        Object content = message.get("content");
        if (content instanceof String) {
            return true;
        }
        if (content instanceof List<?> blocks) {
            for (Object b : blocks) {
                if (b instanceof Map<?, ?> block && "tool_result".equals(block.get("type"))) {
                    return false;
                }
            }
            return !blocks.isEmpty();
        }
        return false;
    }

    /** The client id of the first host in {@link Hosts#ALL} that writes usage records of {@code format}. */
    static String clientOf(UsageFileLocation.Format format) {
        for (Host h : Hosts.ALL) {
            if (h.inventoryFiles() == null) {
                continue;
            }
            for (UsageFileLocation location : h.inventoryFiles().usageFiles()) {
                if (location.format() == format) {
                    return location.clientId();
                }
            }
        }
        throw new IllegalStateException("no host writes usage records of format " + format);
    }

    private static String str(Object o) {
        return o instanceof String s ? s : null;
    }
}
