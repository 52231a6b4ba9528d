package dev.agentwarden.trust;

/** Why a project could not be trusted or its trust not read; the message names the file and what to do. */
public final class TrustException extends Exception {
    private static final long serialVersionUID = 1L;

    public TrustException(String message) {
        super(message);
    }
}
