package dev.agentwarden.manifest;

import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.event.EventName;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A compiled manifest: concerns by name, native-event aliases per host, and the resolved chain per
 * (host, event, role), so dispatch only loops over what applies. Methods used while dispatching
 * avoid streams and lambdas, which cost class loading on a cold start.
 *
 * @param source        where the manifest was read from ({@code builtin:default} for the shipped one)
 * @param sourceSha256  hex SHA-256 of the source bytes; the compiled cache is keyed by it
 * @param aliases       host → native event name → canonical event, as the manifest wrote them; a host
 *                      Warden has an adapter for also has its registry's default aliases under these
 *                      ({@link #aliasesFor})
 * @param concerns      concern name → spec
 * @param chains        host → canonical event wire name → role ("" is the default role) → names
 * @param verbatimReasons the decision log records concern reasons as written, redacted (the default),
 *                        not only their hashes ({@code decision_log: {reasons: hashed}})
 * @param skipped       host → canonical event wire name → the chain entries compiled out, each
 *                      {@code "<name>: <why> (line N)"} (an unknown concern, one listed twice): lint's
 *                      errors, which dispatch names on stderr and in the decision log while the rest runs
 */
public record Manifest(String source, String sourceSha256, Map<String, Map<String, EventName>> aliases,
                       Map<String, ConcernSpec> concerns,
                       Map<String, Map<String, Map<String, List<String>>>> chains, boolean verbatimReasons,
                       Map<String, Map<String, List<String>>> skipped) {

    /** A manifest whose decision log keeps reasons as hashes only (the default). */
    public Manifest(String source, String sourceSha256, Map<String, Map<String, EventName>> aliases,
                    Map<String, ConcernSpec> concerns, Map<String, Map<String, Map<String, List<String>>>> chains) {
        this(source, sourceSha256, aliases, concerns, chains, false);
    }

    /** A manifest with no chain entry compiled out. */
    public Manifest(String source, String sourceSha256, Map<String, Map<String, EventName>> aliases,
                    Map<String, ConcernSpec> concerns, Map<String, Map<String, Map<String, List<String>>>> chains,
                    boolean verbatimReasons) {
        this(source, sourceSha256, aliases, concerns, chains, verbatimReasons, Map.of());
    }

    /** The entries compiled out of {@code host}'s chain for {@code event} ({@link #skipped}); empty when none. */
    public List<String> skipped(String host, EventName event) {
        Map<String, List<String>> byEvent = skipped.get(host);
        if (byEvent == null) {
            return List.of();
        }
        List<String> entries = byEvent.get(event.wire());
        return entries == null ? List.of() : entries;
    }

    /** Role used when the session role is unset or not named in the manifest. */
    public static final String DEFAULT_ROLE = "";

    /**
     * The canonical event for a host's native event name: the manifest's alias; else the host's
     * default ({@link Host#defaultAliases}) when the manifest aliases no native name of its own to that
     * canonical event; {@code null} when neither applies. So a manifest's aliases add native names
     * and override defaults per canonical event, and a manifest with none gets all of the host's.
     */
    public EventName canonicalEvent(String host, String nativeEvent) {
        Map<String, EventName> byNative = aliases.get(host);
        EventName own = byNative == null ? null : byNative.get(nativeEvent);
        if (own != null) {
            return own;
        }
        Host known = Hosts.byId(host);
        EventName standard = known == null ? null : known.defaultAliases().get(nativeEvent);
        return standard == null || (byNative != null && byNative.containsValue(standard)) ? null : standard;
    }

    /** Every native event of a host with its canonical event, as {@link #canonicalEvent} resolves them. */
    public Map<String, EventName> aliasesFor(String host) {
        Map<String, EventName> own = aliases.getOrDefault(host, Map.of());
        Host known = Hosts.byId(host);
        if (known == null) {
            return own;
        }
        if (own.isEmpty()) {
            return known.defaultAliases();
        }
        Map<String, EventName> merged = new LinkedHashMap<>();
        for (Map.Entry<String, EventName> d : known.defaultAliases().entrySet()) {
            if (!own.containsValue(d.getValue())) {
                merged.put(d.getKey(), d.getValue());
            }
        }
        merged.putAll(own);
        return merged;
    }

    /** The native event names a host has bound to a non-empty chain, for install. */
    public List<String> boundNativeEvents(String host) {
        Map<String, EventName> byNative = aliasesFor(host);
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
