package dev.agentwarden.concern;

/**
 * What one concern run decided, before posture and fail mode are applied. {@code ERROR} covers a
 * crash, a timeout, a missing script and an exit code ≥ 3. {@code ASK} lets the user confirm the
 * action on a host that can ask (permission-style hosts); elsewhere the host's capability table
 * says what it becomes.
 */
public enum Decision {
    ALLOW, WARN, ASK, BLOCK, HALT, ERROR
}
