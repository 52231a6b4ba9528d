package dev.agentwarden.integrity;

/** {@code prompt_attach_status}: what of the payload actually reached the assembled prompt. */
public enum AttachStatus {
    ATTACHED_FULL, ATTACHED_PARTIAL, NOT_ATTACHED
}
