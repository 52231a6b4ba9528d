package dev.agentwarden.manifest;

import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.event.EventName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A compiled manifest: concerns by name, native-event aliases per host, and the resolved chain per
 * (host, event, role), so dispatch only loops over what applies. Methods used while dispatching
 * avoid streams and lambdas, which cost class loading on a cold start.
 *
 * @param source        where the manifest was read from ({@code builtin:default} for the shipped one)
 * @param sourceSha256  hex SHA-256 of the source bytes; the compiled cache is keyed by it
 * @param aliases       host → native event name → canonical event
 * @param concerns      concern name → spec
 * @param chains        host → canonical event wire name → role ("" is the default role) → names
 * @param verbatimReasons the decision log records concern reasons as written
 *                        ({@code decision_log: {reasons: verbatim}}), not only their hashes
 */
public record Manifest(String source, String sourceSha256, Map<String, Map<String, EventName>> aliases,
                       Map<String, ConcernSpec> concerns,
                       Map<String, Map<String, Map<String, List<String>>>> chains, boolean verbatimReasons) {

    /** A manifest whose decision log keeps reasons as hashes only (the default). */
    public Manifest(String source, String sourceSha256, Map<String, Map<String, EventName>> aliases,
                    Map<String, ConcernSpec> concerns, Map<String, Map<String, Map<String, List<String>>>> chains) {
        this(source, sourceSha256, aliases, concerns, chains, false);
    }

    /** Role used when the session role is unset or not named in the manifest. */
    public static final String DEFAULT_ROLE = "";

    /** The canonical event for a host's native event name, or {@code null} when not aliased. */
    public EventName canonicalEvent(String host, String nativeEvent) {
        Map<String, EventName> byNative = aliases.get(host);
        return byNative == null ? null : byNative.get(nativeEvent);
    }

    /** The native event names a host has bound to a non-empty chain, for install. */
    public List<String> boundNativeEvents(String host) {
        Map<String, EventName> byNative = aliases.getOrDefault(host, Map.of());
        Map<String, Map<String, List<String>>> hostChains = chains.getOrDefault(host, Map.of());
        return byNative.entrySet().stream()
                .filter(e -> !hostChains.getOrDefault(e.getValue().wire(), Map.of())
                        .getOrDefault(DEFAULT_ROLE, List.of()).isEmpty())
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
    }

    /** The ordered concerns for (host, event, role); role drops are already applied. */
    public List<ConcernSpec> chain(String host, EventName event, String role) {
        Map<String, Map<String, List<String>>> hostChains = chains.get(host);
        if (hostChains == null) {
            return List.of();
        }
        Map<String, List<String>> byRole = hostChains.get(event.wire());
        if (byRole == null) {
            return List.of();
        }
        List<String> names = byRole.get(role == null ? DEFAULT_ROLE : role);
        if (names == null) {
            names = byRole.getOrDefault(DEFAULT_ROLE, List.of());
        }
        List<ConcernSpec> chain = new ArrayList<>(names.size());
        for (String name : names) {
            chain.add(concerns.get(name));
        }
        return chain;
    }
}
