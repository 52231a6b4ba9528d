package dev.agentwarden.release;

/**
 * What a release store answered for one key.
 *
 * @param status FOUND (entry set), NOT_REGISTERED (no entry for the key), or UNTRUSTED (the manifest
 *               itself could not be trusted; {@code reason} names why, e.g. {@code manifest_expired})
 * @param entry  the registered release when FOUND, else {@code null}
 * @param reason machine code explaining NOT_REGISTERED or UNTRUSTED, else {@code null}
 */
public record ReleaseLookup(Status status, ReleaseEntry entry, String reason) {

    public enum Status { FOUND, NOT_REGISTERED, UNTRUSTED }

    static ReleaseLookup found(ReleaseEntry entry) {
        return new ReleaseLookup(Status.FOUND, entry, null);
    }

    public static ReleaseLookup notRegistered(String reason) {
        return new ReleaseLookup(Status.NOT_REGISTERED, null, reason);
    }

    public static ReleaseLookup untrusted(String reason) {
        return new ReleaseLookup(Status.UNTRUSTED, null, reason);
    }
}
