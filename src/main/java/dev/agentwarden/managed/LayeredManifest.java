package dev.agentwarden.managed;

import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.event.EventName;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.manifest.Manifest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A lower layer's manifest (the administrator's, or the user's) laid under the one above it (the
 * user's, the project's, or the default), so that nothing above it can weaken it:
 * <ul>
 *   <li>every concern of the lower layer keeps its definition there: a concern of the same name above
 *       it is ignored (a note says so), so it cannot be replaced, renamed away or lowered in posture;</li>
 *   <li>every chain is the lower layer's chain for that host, event and role first, then the chain above it
 *       without the lower layer's names: a {@code drop:} or a chain that leaves such a concern out only
 *       shapes the part above, and the first refusal of the lower part ends the chain, so the
 *       combined verdict is at least as strict as the lower layer's;</li>
 *   <li>the lower layer's event aliases win for every native event it knows, so a manifest above
 *       cannot move a native event onto a canonical event the lower chains do not bind;</li>
 *   <li>with {@code project_scripts: false} (managed settings) the process concerns above are left out of every chain, loudly.</li>
 * </ul>
 * Each layer ({@link #MANAGED}, {@link #USER}) memoizes its result for the last pair of inputs, so the
 * resident composes once per change.
 */
final class LayeredManifest {
    /** The administrator's layer, under everything. */
    static final LayeredManifest MANAGED = new LayeredManifest("managed");
    /** The user's layer, under the project's (and over nothing but the managed layer). */
    static final LayeredManifest USER = new LayeredManifest("user");

    private final String layer;
    private volatile Composed last;

    private record Composed(Manifest managed, Manifest above, ManagedSettings settings, Manifest result, List<String> notes) {
    }

    private LayeredManifest(String layer) {
        this.layer = layer;
    }

    /** The managed layer under {@code above}. */
    static Manifest compose(Manifest managed, Manifest above, ManagedSettings settings, List<String> notes) {
        return MANAGED.under(managed, above, settings, notes);
    }

    /** {@code lower} (this layer's manifest, or {@code null} for settings alone) laid under {@code above}. */
    Manifest under(Manifest lower, Manifest above, ManagedSettings settings, List<String> notes) {
        Composed known = last;
        if (known != null && known.managed == lower && known.above == above && known.settings.equals(settings)) {
            notes.addAll(known.notes);
            return known.result;
        }
        List<String> said = new ArrayList<>();
        Manifest result = build(lower, above, settings, said);
        last = new Composed(lower, above, settings, result, said);
        notes.addAll(said);
        return result;
    }

    private Manifest build(Manifest managed, Manifest above, ManagedSettings settings, List<String> notes) {
        Map<String, ConcernSpec> managedConcerns = managed == null ? Map.of() : managed.concerns();
        Map<String, ConcernSpec> concerns = new LinkedHashMap<>(managedConcerns);
        Set<String> leftOut = new LinkedHashSet<>();
        for (Map.Entry<String, ConcernSpec> e : above.concerns().entrySet()) {
            String name = e.getKey();
            if (managedConcerns.containsKey(name)) {
                if (!e.getValue().equals(managedConcerns.get(name))) {
                    notes.add("warden: concern '" + name + "' of " + above.source()
                            + " ignored: the " + layer + " policy defines it (" + managed.source() + ")");
                }
                continue;
            }
            if (!settings.projectScripts() && !e.getValue().isBuiltin()) {
                leftOut.add(name);
                continue;
            }
            concerns.put(name, e.getValue());
        }
        if (!leftOut.isEmpty()) {
            notes.add("warden: process concern(s) " + leftOut + " of " + above.source()
                    + " not run: the managed settings set project_scripts: false");
        }
        Map<String, Map<String, Map<String, List<String>>>> chains = new LinkedHashMap<>();
        if (managed != null) {
            for (Map.Entry<String, Map<String, Map<String, List<String>>>> host : managed.chains().entrySet()) {
                for (Map.Entry<String, Map<String, List<String>>> event : host.getValue().entrySet()) {
                    for (Map.Entry<String, List<String>> role : event.getValue().entrySet()) {
                        chainOf(chains, host.getKey(), event.getKey(), role.getKey()).addAll(role.getValue());
                    }
                }
            }
        }
        for (Map.Entry<String, Map<String, Map<String, List<String>>>> host : above.chains().entrySet()) {
            for (Map.Entry<String, Map<String, List<String>>> event : host.getValue().entrySet()) {
                for (Map.Entry<String, List<String>> role : event.getValue().entrySet()) {
                    List<String> chain = chainOf(chains, host.getKey(), event.getKey(), role.getKey());
                    if (chain.isEmpty() && managed != null && !role.getKey().equals(Manifest.DEFAULT_ROLE)) {
                        // a role chain above: the managed default-role chain still runs first for it
                        chain.addAll(managedChain(managed, host.getKey(), event.getKey()));
                    }
                    for (String name : role.getValue()) {
                        if (!chain.contains(name) && concerns.containsKey(name)) {
                            chain.add(name);
                        }
                    }
                }
            }
        }
        // a managed role chain the layer above has no chain for: that role would otherwise lose the
        // above's default-role chain, which it runs without a managed layer
        for (Map.Entry<String, Map<String, Map<String, List<String>>>> host : chains.entrySet()) {
            for (Map.Entry<String, Map<String, List<String>>> event : host.getValue().entrySet()) {
                List<String> aboveDefault = aboveChain(above, host.getKey(), event.getKey(), Manifest.DEFAULT_ROLE);
                for (Map.Entry<String, List<String>> role : event.getValue().entrySet()) {
                    if (role.getKey().equals(Manifest.DEFAULT_ROLE)
                            || aboveChain(above, host.getKey(), event.getKey(), role.getKey()) != null || aboveDefault == null) {
                        continue;
                    }
                    for (String name : aboveDefault) {
                        if (!role.getValue().contains(name) && concerns.containsKey(name)) {
                            role.getValue().add(name);
                        }
                    }
                }
            }
        }
        return new Manifest(above.source(), above.sourceSha256(), aliases(managed, above), concerns, freeze(chains),
                settings.reasons() != null ? settings.reasons().equals("verbatim") : above.verbatimReasons(), above.skipped());
    }

    /** The chain the layer above names for (host, event, role), or {@code null}. */
    private static List<String> aboveChain(Manifest above, String host, String event, String role) {
        Map<String, Map<String, List<String>>> byEvent = above.chains().get(host);
        Map<String, List<String>> byRole = byEvent == null ? null : byEvent.get(event);
        return byRole == null ? null : byRole.get(role);
    }

    private static List<String> managedChain(Manifest managed, String host, String event) {
        Map<String, Map<String, List<String>>> byEvent = managed.chains().get(host);
        Map<String, List<String>> byRole = byEvent == null ? null : byEvent.get(event);
        List<String> chain = byRole == null ? null : byRole.get(Manifest.DEFAULT_ROLE);
        return chain == null ? List.of() : chain;
    }

    private static List<String> chainOf(Map<String, Map<String, Map<String, List<String>>>> chains, String host,
                                        String event, String role) {
        Map<String, Map<String, List<String>>> byEvent = chains.get(host);
        if (byEvent == null) {
            byEvent = new LinkedHashMap<>();
            chains.put(host, byEvent);
        }
        Map<String, List<String>> byRole = byEvent.get(event);
        if (byRole == null) {
            byRole = new LinkedHashMap<>();
            byEvent.put(event, byRole);
        }
        List<String> chain = byRole.get(role);
        if (chain == null) {
            chain = new ArrayList<>();
            byRole.put(role, chain);
        }
        return chain;
    }

    private static Map<String, Map<String, Map<String, List<String>>>> freeze(
            Map<String, Map<String, Map<String, List<String>>>> chains) {
        for (Map<String, Map<String, List<String>>> byEvent : chains.values()) {
            for (Map<String, List<String>> byRole : byEvent.values()) {
                for (Map.Entry<String, List<String>> e : byRole.entrySet()) {
                    e.setValue(List.copyOf(e.getValue()));
                }
            }
        }
        return chains;
    }

    /** The aliases above, with every native event the managed layer resolves kept on the managed layer's canonical event. */
    private static Map<String, Map<String, EventName>> aliases(Manifest managed, Manifest above) {
        Map<String, Map<String, EventName>> out = new LinkedHashMap<>();
        for (Map.Entry<String, Map<String, EventName>> e : above.aliases().entrySet()) {
            out.put(e.getKey(), new LinkedHashMap<>(e.getValue()));
        }
        if (managed == null) {
            return out;
        }
        for (Host host : Hosts.ALL) {
            Map<String, EventName> fixed = managed.aliasesFor(host.id());
            if (fixed.isEmpty()) {
                continue;
            }
            Map<String, EventName> merged = out.get(host.id());
            if (merged == null) {
                merged = new LinkedHashMap<>(above.aliasesFor(host.id()));
                out.put(host.id(), merged);
            } else {
                Map<String, EventName> resolved = new LinkedHashMap<>(above.aliasesFor(host.id()));
                resolved.putAll(merged);
                merged.putAll(resolved);
            }
            merged.putAll(fixed);
        }
        return out;
    }
}
