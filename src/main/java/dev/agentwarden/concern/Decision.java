package dev.agentwarden.concern;

/**
 * What one concern run decided, before posture and fail mode are applied. {@code ERROR} covers a
 * crash, a timeout, a missing script and an exit code ≥ 3.
 */
public enum Decision {
    ALLOW, WARN, BLOCK, HALT, ERROR
}
