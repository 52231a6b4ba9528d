package dev.agentwarden.inventory;

import java.util.Map;

/**
 * One usage object as a host wrote it, with the identity the same record proves.
 *
 * @param turn     0 for the first user prompt of the session
 * @param client   {@code claude-code}, {@code codex}; {@code null} when the record does not say
 * @param usage    the raw usage object (cache fields included), unmodified
 * @param duplicateOf {@code file:line} of the record whose usage this repeats (Claude writes one line per
 *                    content block, and a continued session's transcript may copy earlier lines), or {@code null}
 */
record UsageRecord(String source, long line, String sessionId, long turn, String client, String clientVersion,
                          String model, Map<String, Object> usage, String duplicateOf) {
}
