package dev.agentwarden.manifest;

import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.digest.Sha256;
import dev.agentwarden.event.EventName;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A project manifest with {@code extends: default}, laid over the manifest shipped with Warden:
 * concerns merge by name (the project's definition replaces the default's), a chain the project
 * names replaces the default chain for that host and event ({@code {drop: [...]}} instead of a
 * list keeps the default chain without the named concerns), native-event aliases merge per host
 * (the project's win), and everything the project does not name is the default's.
 * Compiled once off the dispatch path; the compiled form records the default it was merged with.
 */
public final class ManifestMerge {
    /** The only manifest a project may extend. */
    public static final String DEFAULT = "default";
    /** Where a concern or chain of a merged manifest came from, as {@code manifest show} prints it. */
    public static final String FROM_DEFAULT = "default";
    public static final String FROM_PROJECT = "project";
    static final String OVERRIDES_DEFAULT = "project, replaces the default's";

    private final Manifest base;
    private final Map<String, String> concernOrigins = new LinkedHashMap<>();
    private final Map<String, String> chainOrigins = new LinkedHashMap<>();

    private ManifestMerge(Manifest base) {
        this.base = base;
    }

    /** A merge over the shipped default, which always compiles (a test pins it). */
    static ManifestMerge overDefault() {
        try {
            ManifestLoader.Source d = ManifestLoader.builtinDefault();
            ManifestCompiler.Result r = ManifestCompiler.compile(d.name(), DefaultManifest.YAML, d.sha());
            if (r.manifest() == null) {
                throw new IllegalStateException("the default manifest does not compile: " + r.problems());
            }
            return new ManifestMerge(r.manifest());
        } catch (ManifestException e) {
            throw new IllegalStateException("the default manifest does not compile: " + e.getMessage(), e);
        }
    }

    /** Hex SHA-256 of the shipped default, recorded in a merged manifest's compiled form. */
    static String defaultSha256() {
        return Holder.SHA256;
    }

    private static final class Holder {
        static final String SHA256 = Sha256.hex(DefaultManifest.YAML.getBytes(StandardCharsets.UTF_8));
    }

    /** The default's concerns, then the project's: a project concern of the same name replaces the default's. */
    Map<String, ConcernSpec> concerns(Map<String, ConcernSpec> own) {
        Map<String, ConcernSpec> out = new LinkedHashMap<>(base.concerns());
        for (String name : base.concerns().keySet()) {
            concernOrigins.put(name, FROM_DEFAULT);
        }
        for (Map.Entry<String, ConcernSpec> e : own.entrySet()) {
            concernOrigins.put(e.getKey(), out.containsKey(e.getKey()) ? OVERRIDES_DEFAULT : FROM_PROJECT);
            out.put(e.getKey(), e.getValue());
        }
        return out;
    }

    /** The default chain for a host and event (its default role), empty when it binds none. */
    List<String> defaultChain(String host, String event) {
        return base.chains().getOrDefault(host, Map.of()).getOrDefault(event, Map.of())
                .getOrDefault(Manifest.DEFAULT_ROLE, List.of());
    }

    /** The default's chains, with each chain the project names in its place. */
    Map<String, Map<String, List<String>>> platforms(Map<String, Map<String, List<String>>> own,
                                                     Map<String, Map<String, String>> ownOrigins) {
        Map<String, Map<String, List<String>>> out = new LinkedHashMap<>();
        base.chains().forEach((host, byEvent) -> {
            Map<String, List<String>> events = new LinkedHashMap<>();
            byEvent.forEach((event, byRole) -> {
                events.put(event, byRole.getOrDefault(Manifest.DEFAULT_ROLE, List.of()));
                chainOrigins.put(host + "." + event, FROM_DEFAULT);
            });
            out.put(host, events);
        });
        own.forEach((host, byEvent) -> {
            Map<String, List<String>> events = out.computeIfAbsent(host, h -> new LinkedHashMap<>());
            byEvent.forEach((event, names) -> {
                events.put(event, names);
                chainOrigins.put(host + "." + event, ownOrigins.getOrDefault(host, Map.of()).getOrDefault(event, FROM_PROJECT));
            });
        });
        return out;
    }

    /** The default's aliases per host, with the project's added or overriding. */
    Map<String, Map<String, EventName>> aliases(Map<String, Map<String, EventName>> own) {
        Map<String, Map<String, EventName>> out = new LinkedHashMap<>();
        base.aliases().forEach((host, byNative) -> out.put(host, new LinkedHashMap<>(byNative)));
        own.forEach((host, byNative) -> out.computeIfAbsent(host, h -> new LinkedHashMap<>()).putAll(byNative));
        return out;
    }

    /**
     * Where each concern and chain of a compiled manifest came from.
     *
     * @param concerns concern name → {@link #FROM_DEFAULT}, {@link #FROM_PROJECT} or {@link #OVERRIDES_DEFAULT}
     * @param chains   {@code host.event} → {@link #FROM_DEFAULT}, {@link #FROM_PROJECT}, or
     *                 {@code default without [names]}; empty for a manifest that extends nothing
     */
    public record Origins(String base, Map<String, String> concerns, Map<String, String> chains) {
        public static final Origins NONE = new Origins(null, Map.of(), Map.of());
    }

    Origins origins() {
        return new Origins(DEFAULT, Collections.unmodifiableMap(new LinkedHashMap<>(concernOrigins)),
                Collections.unmodifiableMap(new LinkedHashMap<>(chainOrigins)));
    }
}
