package dev.agentwarden.release;

/**
 * Source of expected release hashes, keyed by (agent_version, client_id, client_version). Expected
 * SHAs come only from here, never from attached bytes.
 */
public interface ReleaseStore {

    /** The registered release for a key; never throws for a missing entry. */
    ReleaseLookup lookup(ReleaseKey key);

    /**
     * Whether this store's answers come from a manifest whose signatures were verified against a
     * trust root. Only such a store counts when a trusted manifest is required; an operator-placed
     * unsigned list does not.
     */
    default boolean verifiedAgainstTrustRoot() {
        return false;
    }
}
