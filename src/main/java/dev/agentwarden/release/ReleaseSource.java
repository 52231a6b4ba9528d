package dev.agentwarden.release;

import java.util.Map;

/**
 * The trusted release manifest an evaluation consults.
 *
 * @param store the store, or {@code null} when no manifest is configured
 * @param ref   what identifies the manifest in evidence ({@code path}, {@code sha256}), or {@code null}
 */
public record ReleaseSource(ReleaseStore store, Map<String, String> ref) {

    /** No manifest configured: every lookup is NOT_REGISTERED. */
    public static final ReleaseSource NONE = new ReleaseSource(null, null);
}
