package dev.agentwarden.integrity;

/**
 * {@code release_integrity}, the provenance axis: is the source the registered release.
 * No entry, an unknown key or an untrusted manifest is {@code UNREGISTERED}, never {@code MISMATCH}.
 */
public enum ReleaseIntegrity {
    VERIFIED, MISMATCH, UNREGISTERED
}
