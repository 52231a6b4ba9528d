package dev.agentwarden.integrity;

/**
 * {@code payload_read_status}: the READ-dimension result of one agent-file read attempt.
 * {@code TRUNCATED} is reserved for a partial read proven by byte counts (fewer bytes read than the
 * file held when it was opened); a complete read whose attachment was clipped is {@code LOADED}.
 */
public enum ReadStatus {
    LOADED, TRUNCATED, EMPTY, ABSENT
}
