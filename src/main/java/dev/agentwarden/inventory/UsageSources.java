package dev.agentwarden.inventory;

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
 * Usage records from where hosts write them:
 * <ul>
 * <li>Claude Code transcripts ({@code transcript_path} in hook payloads): JSONL; a {@code user} line
 *     whose content is the prompt (not a tool result, not meta, not a sidechain) starts a turn;
 *     each {@code assistant} line carries {@code message.model}, {@code message.usage} and the
 *     client {@code version}; lines of one message id repeat the same usage;
 * <li>Codex {@code exec --json} streams: {@code turn.started} starts a turn, {@code turn.completed}
 *     carries {@code usage}; the stream names neither model nor client version.
 * </ul>
 * Lines that are not JSON objects are returned as problems, never dropped silently.
 */
public final class UsageSources {
    /** Longest line read. */
    static final int MAX_LINE_CHARS = 16 * 1024 * 1024;

    private final List<UsageRecord> records = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();

    public List<UsageRecord> records() {
        return records;
    }

    public List<String> problems() {
        return problems;
    }

    @SuppressWarnings("unchecked")
    public void read(Path file) throws IOException {
        long turn = -1;
        long lineNo = 0;
        Map<String, Long> messageLines = new HashMap<>();
        String codexThread = null;
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
                if ("user".equals(type) && isPrompt(m)) {
                    turn++;
                } else if ("assistant".equals(type) && m.get("message") instanceof Map<?, ?> message
                        && message.get("usage") instanceof Map<?, ?> usage) {
                    String id = message.get("id") instanceof String s ? s : null;
                    Long first = id == null ? null : messageLines.putIfAbsent(id, lineNo);
                    records.add(new UsageRecord(file.toString(), lineNo, str(m.get("sessionId")), Math.max(turn, 0),
                            "claude-code", str(m.get("version")), str(message.get("model")),
                            (Map<String, Object>) usage, first == null ? 0 : first));
                } else if ("thread.started".equals(type)) {
                    codexThread = str(m.get("thread_id"));
                } else if ("turn.started".equals(type)) {
                    turn++;
                } else if ("turn.completed".equals(type) && m.get("usage") instanceof Map<?, ?> usage) {
                    records.add(new UsageRecord(file.toString(), lineNo, codexThread, Math.max(turn, 0), "codex", null, null,
                            (Map<String, Object>) usage, 0));
                }
            }
        }
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

    private static String str(Object o) {
        return o instanceof String s ? s : null;
    }
}
