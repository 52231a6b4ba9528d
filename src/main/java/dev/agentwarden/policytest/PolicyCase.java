package dev.agentwarden.policytest;

import java.nio.file.Path;

/**
 * One case of a policy test file: an event and what the manifest must answer.
 *
 * @param file           the test file it came from
 * @param index          its position in the file, from 1
 * @param name           what it checks, in words
 * @param host           the host id ({@code claude}, {@code codex}, ...)
 * @param nativeEvent    the host's event name ({@code PreToolUse})
 * @param payload        the bytes sent on stdin, filled in as the host would send them
 * @param role           the session role, or {@code null} for the default
 * @param failMode       {@code open} or {@code closed}, or {@code null} for the default
 * @param verdict        the expected verdict: {@code allow|warn|ask|block|halt}
 * @param reasonContains text the reason must contain, or {@code null}
 * @param output         the exact stdout the host must get, or {@code null}
 */
public record PolicyCase(Path file, int index, String name, String host, String nativeEvent, byte[] payload,
                         String role, String failMode, String verdict, String reasonContains, String output) {
}
