package dev.agentwarden.integrity.agentfile;

/**
 * Where a boundary profile's markers were found in one artifact.
 *
 * @param headLine 1-based line holding the head marker on its own line within the profile's window,
 *                 or 0 when it is not there (or the profile has no head marker)
 * @param eof      whether the last non-empty line is exactly the EOF marker
 */
public record Boundaries(int headLine, boolean eof) {
}
