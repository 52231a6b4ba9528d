package dev.agentwarden.builtin;

import dev.agentwarden.host.Hosts;
import dev.agentwarden.integrity.agentfile.BoundaryProfile;
import dev.agentwarden.launch.AgentResolver;
import dev.agentwarden.integrity.IntegrityGate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code integrity-attach} concern's settings, checked when the manifest is compiled (see
 * {@link IntegrityAttach} for what each one does).
 *
 * @param agent                  the agent id (required)
 * @param file                   the agent file relative to the workspace root, or {@code null} to resolve it
 * @param role                   the agent's role, or {@code null}
 * @param profile                the boundary profile with its markers
 * @param releaseManifest        release manifest path, or {@code null}
 * @param trustRoot              trust root path (makes the release manifest a signed one), or {@code null}
 * @param agentVersion           the agent's version, or {@code null}
 * @param clientId               the client id
 * @param clientVersion          the client version, or {@code null}
 * @param requireTrustedManifest an untrusted release manifest halts
 * @param maxChars               most characters attached, 0 for the host's cap (never more than the cap)
 * @param maxBytes               most bytes read from the agent file
 * @param sources                SessionStart sources to act on, or {@code null} for all
 */
public record AttachSettings(String agent, String file, String role, BoundaryProfile profile, String releaseManifest,
                             String trustRoot, String agentVersion, String clientId, String clientVersion,
                             boolean requireTrustedManifest, long maxChars, long maxBytes, List<String> sources) {
    /** Setting keys, in the order the README lists them. */
    public static final List<String> KEYS = List.of("agent", "file", "role", "profile", "head_marker", "eof_marker",
            "release_manifest", "trust_root", "agent_version", "client_id", "client_version",
            "require_trusted_manifest", "max_chars", "max_bytes", "sources");

    /**
     * Reads settings; absent keys take their defaults.
     *
     * @throws IllegalArgumentException with a message {@code <key>: <what is wrong>}
     */
    public static AttachSettings from(Map<String, Object> settings) {
        String agent = text(settings, "agent", null);
        if (agent == null || !AgentResolver.validId(agent)) {
            throw new IllegalArgumentException("agent: must name the agent (a plain id), got " + agent);
        }
        BoundaryProfile profile;
        try {
            profile = BoundaryProfile.of(text(settings, "profile", BoundaryProfile.SQUAD),
                    text(settings, "head_marker", null), text(settings, "eof_marker", null));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("profile: " + e.getMessage());
        }
        String releaseManifest = text(settings, "release_manifest", null);
        String trustRoot = text(settings, "trust_root", null);
        if (trustRoot != null && releaseManifest == null) {
            throw new IllegalArgumentException("trust_root: needs release_manifest");
        }
        Object trusted = settings.getOrDefault("require_trusted_manifest", Boolean.FALSE);
        if (!(trusted instanceof Boolean requireTrusted)) {
            throw new IllegalArgumentException("require_trusted_manifest: must be true or false, got " + trusted);
        }
        long maxChars = number(settings, "max_chars", 0, 1, Hosts.largestOutputCap());
        long maxBytes = number(settings, "max_bytes", IntegrityGate.DEFAULT_MAX_BYTES, 1, IntegrityGate.MAX_MAX_BYTES);
        List<String> sources = null;
        if (settings.get("sources") != null) {
            if (!(settings.get("sources") instanceof List<?> list) || list.isEmpty()) {
                throw new IllegalArgumentException("sources: must be a non-empty list of SessionStart sources");
            }
            sources = new ArrayList<>();
            for (Object s : list) {
                if (!(s instanceof String name)) {
                    throw new IllegalArgumentException("sources: entries must be strings, got " + s);
                }
                sources.add(name);
            }
            sources = List.copyOf(sources);
        }
        return new AttachSettings(agent, text(settings, "file", null), text(settings, "role", null), profile,
                releaseManifest, trustRoot, text(settings, "agent_version", null),
                text(settings, "client_id", "claude-code"), text(settings, "client_version", null),
                requireTrusted, maxChars, maxBytes, sources);
    }

    /** A string setting; any other type is a configuration error (quote versions in YAML). */
    private static String text(Map<String, Object> settings, String key, String fallback) {
        Object v = settings.get(key);
        if (v == null) {
            return fallback;
        }
        if (!(v instanceof String s)) {
            throw new IllegalArgumentException(key + ": must be a string (quote it in YAML), got " + v);
        }
        return s;
    }

    private static long number(Map<String, Object> settings, String key, long fallback, long min, long max) {
        Object v = settings.get(key);
        if (v == null) {
            return fallback;
        }
        if (!(v instanceof Long n) || n < min || n > max) {
            throw new IllegalArgumentException(key + ": must be an integer within " + min + ".." + max + ", got " + v);
        }
        return n;
    }
}
