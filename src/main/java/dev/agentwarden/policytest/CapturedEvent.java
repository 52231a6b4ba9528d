package dev.agentwarden.policytest;

import java.nio.file.Path;

/**
 * One event as a host sent it: from a {@code WARDEN_CAPTURE_DIR} file or a line of a session file.
 *
 * @param label       where it came from ({@code claude-PreToolUse-….json}, {@code session.jsonl:3})
 * @param file        the capture file, or {@code null} for a session-file line
 * @param host        the host id
 * @param nativeEvent the host's event name
 * @param payload     the raw stdin
 */
public record CapturedEvent(String label, Path file, String host, String nativeEvent, byte[] payload) {
}
