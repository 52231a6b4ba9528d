package dev.agentwarden.manifest;

import dev.agentwarden.builtin.Builtins;
import dev.agentwarden.concern.Concern;
import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.event.EventName;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A compiled manifest: concerns by name, native-event aliases per host, and the resolved chain per
 * (host, event, role), so dispatch only loops over what applies. Methods used while dispatching
 * avoid streams and lambdas, which cost class loading on a cold start.
 *
 * <p>It also owns what dispatch builds from it, each built on first use and kept as long as the
 * manifest is: each chain's list of concerns ({@link #chain}) and each built-in concern's instance
 * ({@link #built}). A one-shot process so builds only what its one event runs; the resident, which
 * keeps a loaded manifest across events, builds each concern once. Both are safe to share between
 * threads, as the built-ins are ({@link Built}).
 *
 * <p>Its value is its components: {@link #equals} and {@link #hashCode} ignore what was built.
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
public final class Manifest {
    private final String source;
    private final String sourceSha256;
    private final Map<String, Map<String, EventName>> aliases;
    private final Map<String, ConcernSpec> concerns;
    private final Map<String, Map<String, Map<String, List<String>>>> chains;
    private final boolean verbatimReasons;
    private final Map<String, Map<String, List<String>>> skipped;
    /** {@link #chain}'s lists, by host, event and the role whose list it is, each {@code \n}-joined. */
    private final ConcurrentHashMap<String, List<ConcernSpec>> chainLists = new ConcurrentHashMap<>();
    /** {@link #built}'s results, by concern name. */
    private final ConcurrentHashMap<String, Built> builtins = new ConcurrentHashMap<>();

    public Manifest(String source, String sourceSha256, Map<String, Map<String, EventName>> aliases,
                    Map<String, ConcernSpec> concerns, Map<String, Map<String, Map<String, List<String>>>> chains,
                    boolean verbatimReasons, Map<String, Map<String, List<String>>> skipped) {
        this.source = source;
        this.sourceSha256 = sourceSha256;
        this.aliases = aliases;
        this.concerns = concerns;
        this.chains = chains;
        this.verbatimReasons = verbatimReasons;
        this.skipped = skipped;
    }

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

    public String source() {
        return source;
    }

    public String sourceSha256() {
        return sourceSha256;
    }

    public Map<String, Map<String, EventName>> aliases() {
        return aliases;
    }

    public Map<String, ConcernSpec> concerns() {
        return concerns;
    }

    public Map<String, Map<String, Map<String, List<String>>>> chains() {
        return chains;
    }

    public boolean verbatimReasons() {
        return verbatimReasons;
    }

    public Map<String, Map<String, List<String>>> skipped() {
        return skipped;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Manifest m && verbatimReasons == m.verbatimReasons && Objects.equals(source, m.source)
                && Objects.equals(sourceSha256, m.sourceSha256) && Objects.equals(aliases, m.aliases)
                && Objects.equals(concerns, m.concerns) && Objects.equals(chains, m.chains)
                && Objects.equals(skipped, m.skipped);
    }

    @Override
    public int hashCode() {
        return Objects.hash(source, sourceSha256, aliases, concerns, chains, verbatimReasons, skipped);
    }

    @Override
    public String toString() {
        return "Manifest[source=" + source + ", sourceSha256=" + sourceSha256 + ", aliases=" + aliases + ", concerns="
                + concerns + ", chains=" + chains + ", verbatimReasons=" + verbatimReasons + ", skipped=" + skipped + "]";
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

    /**
     * The ordered concerns for (host, event, role); role drops are already applied. A role the
     * manifest does not name gets the default role's chain. The list is unmodifiable, made on the
     * first call for its chain and the same list afterwards.
     */
    public List<ConcernSpec> chain(String host, EventName event, String role) {
        Map<String, Map<String, List<String>>> hostChains = chains.get(host);
        if (hostChains == null) {
            return List.of();
        }
        Map<String, List<String>> byRole = hostChains.get(event.wire());
        if (byRole == null) {
            return List.of();
        }
        String listed = role == null ? DEFAULT_ROLE : role;
        List<String> names = byRole.get(listed);
        if (names == null) {
            listed = DEFAULT_ROLE;
            names = byRole.getOrDefault(DEFAULT_ROLE, List.of());
        }
        // keyed by the role whose list it is: as many entries as the manifest has lists, whatever roles sessions claim
        String key = host + '\n' + event.wire() + '\n' + listed;
        List<ConcernSpec> chain = chainLists.get(key);
        if (chain != null) {
            return chain;
        }
        List<ConcernSpec> made = new ArrayList<>(names.size());
        for (String name : names) {
            made.add(concerns.get(name));
        }
        chain = Collections.unmodifiableList(made);
        List<ConcernSpec> raced = chainLists.putIfAbsent(key, chain);
        return raced == null ? chain : raced;
    }

    /**
     * A built-in concern of this manifest as it runs: its instance, made from its settings on the
     * first call for it ({@link Builtins#create}) and the same instance afterwards, or why it cannot
     * be made. A concern that cannot be made is not tried again unless the reason was not its
     * settings' (a crash, which the next call tries again). A spec that is not this manifest's own
     * (another spec by the same name) is built each time.
     *
     * @param spec a built-in ({@link ConcernSpec#isBuiltin})
     */
    public Built built(ConcernSpec spec) {
        boolean own = concerns.get(spec.name()) == spec;
        Built built = own ? builtins.get(spec.name()) : null;
        if (built != null) {
            return built;
        }
        try {
            built = new Built(Builtins.create(spec), null);
        } catch (IllegalArgumentException e) {
            built = new Built(null, "cannot be constructed: " + e.getMessage());
        } catch (Exception | StackOverflowError | OutOfMemoryError e) {
            return new Built(null, "crashed: " + e);
        }
        if (!own) {
            return built;
        }
        Built raced = builtins.putIfAbsent(spec.name(), built);
        return raced == null ? built : raced;
    }

    /**
     * A built-in concern as {@link #built} made it. One instance runs every event its manifest's
     * chains bind it to, on whichever thread dispatches the event: a built-in keeps no state of an
     * event in its instance.
     *
     * @param concern the instance, or {@code null} when it could not be made
     * @param problem why it could not be made, as its run's error reason, or {@code null}
     */
    public record Built(Concern concern, String problem) {
    }
}
