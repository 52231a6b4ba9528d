package dev.agentwarden.integrity;

/**
 * Source of expected release hashes, keyed by (agent_version, client_id, client_version). Expected
 * SHAs come only from here, never from attached bytes.
 */
public interface ReleaseStore {

    /** The registered release for a key; never throws for a missing entry. */
    ReleaseLookup lookup(ReleaseKey key);
}
