package dev.agentwarden.json;

/**
 * Bounds and strictness applied while reading one JSON text.
 *
 * @param maxDepth            deepest allowed nesting of arrays and objects
 * @param maxStringChars      longest allowed string, in UTF-16 units
 * @param rejectDuplicateKeys I-JSON: an object naming a property twice is an error
 * @param rejectLoneSurrogates I-JSON: a {@code \\uD800}-style escape without its pair is an error
 * @param strictUtf8          malformed UTF-8 input is an error instead of being replaced by U+FFFD
 */
public record JsonLimits(int maxDepth, int maxStringChars, boolean rejectDuplicateKeys,
                         boolean rejectLoneSurrogates, boolean strictUtf8) {

    /** Host payloads: generous bounds, lenient about duplicates and encoding. */
    public static final JsonLimits LENIENT = new JsonLimits(256, 64 * 1024 * 1024, false, false, false);

    /** I-JSON (RFC 7493) as RFC 8785 requires. */
    public static final JsonLimits I_JSON = new JsonLimits(256, 64 * 1024 * 1024, true, true, true);
}
