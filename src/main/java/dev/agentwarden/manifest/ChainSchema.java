package dev.agentwarden.manifest;

import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.builtin.Builtins;
import dev.agentwarden.event.EventName;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.text.NearMiss;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;

/**
 * The schema of a manifest's chains: {@code roles:} (what a role drops), {@code
 * native_event_aliases:}, and {@code platforms:} (per host and event, the concern names that run, a
 * {@code {drop: [...]}} over the default, or {@code fallback_only}). It records, beside the chains,
 * what the compiled manifest reports about them: entries left out, and where a drop chain came from.
 */
final class ChainSchema {
    private static final List<String> ROLE_KEYS = List.of("drop");
    /**
     * agent-config's marker for a host with no hook surface ({@code platforms.copilot.fallback_only:
     * true}): accepted in place of event chains, and binds nothing for that host (no chain of its own,
     * none from the default it extends), so Warden's hooks for it do nothing.
     */
    private static final String FALLBACK_ONLY = "fallback_only";

    private final ManifestNodes yaml;
    /** {@code extends: default} was read: the shipped default lies under this manifest; else {@code null}. */
    private final ManifestMerge merge;
    /** host → event → where a {@code {drop: [...]}} chain came from. */
    private final Map<String, Map<String, String>> dropOrigins = new LinkedHashMap<>();
    /**
     * host → event → the chain entries left out, each {@code "<name>: <why> (line N)"}: an unknown
     * concern, or one listed twice. Lint reports each as an error; dispatch runs the rest of the chain.
     */
    private final Map<String, Map<String, List<String>>> skipped = new LinkedHashMap<>();
    /** Hosts marked {@code fallback_only: true}: they bind nothing, not even chains {@code extends: default} brings. */
    private final Set<String> fallbackOnly = new LinkedHashSet<>();

    ChainSchema(ManifestNodes yaml, ManifestMerge merge) {
        this.yaml = yaml;
        this.merge = merge;
    }

    Map<String, Map<String, String>> dropOrigins() {
        return dropOrigins;
    }

    Map<String, Map<String, List<String>>> skipped() {
        return skipped;
    }

    Set<String> fallbackOnly() {
        return fallbackOnly;
    }

    Map<String, Set<String>> readRoles(NodeTuple t, Map<String, ConcernSpec> concerns) {
        Map<String, Set<String>> drops = new LinkedHashMap<>();
        if (t == null) {
            return drops;
        }
        if (!(t.getValueNode() instanceof MappingNode map)) {
            yaml.error("wrong-type", t.getValueNode(), "roles", "must be a mapping of role to {drop: [...]}", true);
            return drops;
        }
        yaml.entries(map, "roles").forEach((role, entry) -> {
            String path = "roles." + role;
            if (!(entry.getValueNode() instanceof MappingNode roleMap)) {
                yaml.error("wrong-type", entry.getValueNode(), path, "must be a mapping with drop:", true);
                return;
            }
            Map<String, NodeTuple> keys = yaml.entries(roleMap, path);
            for (String k : keys.keySet()) {
                if (!ROLE_KEYS.contains(k)) {
                    yaml.unknownKey("unknown-key", keys.get(k).getKeyNode(), path + "." + k, "unknown role key; a role has drop:"
                            + NearMiss.hint(k, ROLE_KEYS));
                }
            }
            Set<String> dropped = new LinkedHashSet<>();
            if (keys.get("drop") != null) {
                Node list = keys.get("drop").getValueNode();
                for (String name : yaml.stringList(keys.get("drop"), path + ".drop")) {
                    if (!concerns.containsKey(name)) {
                        // dropping what no chain holds changes nothing: lint's error, not the manifest's end
                        yaml.error("unknown-concern", list, path + ".drop", "unknown concern '" + name + "'"
                                + NearMiss.hint(name, concerns.keySet()), false);
                    }
                    dropped.add(name);
                }
            }
            drops.put(role, dropped);
        });
        return drops;
    }

    Map<String, Map<String, EventName>> readAliases(NodeTuple t) {
        Map<String, Map<String, EventName>> out = new LinkedHashMap<>();
        if (t == null) {
            return out;
        }
        if (!(t.getValueNode() instanceof MappingNode map)) {
            yaml.error("wrong-type", t.getValueNode(), "native_event_aliases", "must be a mapping of host to native-event aliases", true);
            return out;
        }
        yaml.entries(map, "native_event_aliases").forEach((host, entry) -> {
            String path = "native_event_aliases." + host;
            checkHost(entry.getKeyNode(), path, host);
            if (!(entry.getValueNode() instanceof MappingNode hostMap)) {
                yaml.error("wrong-type", entry.getValueNode(), path, "must be a mapping of NativeEvent: canonical_event", true);
                return;
            }
            Map<String, EventName> byNative = new LinkedHashMap<>();
            yaml.entries(hostMap, path).forEach((nativeName, alias) -> {
                String ev = yaml.string(alias.getValueNode(), path + "." + nativeName, true);
                EventName canonical = EventName.fromWire(ev);
                if (ev != null && canonical == null) {
                    yaml.error("unknown-event", alias.getValueNode(), path + "." + nativeName, "unknown event '" + ev + "'"
                            + NearMiss.hint(ev, EventName.wireNames()), true);
                } else if (canonical != null) {
                    byNative.put(nativeName, canonical);
                }
            });
            out.put(host, byNative);
        });
        return out;
    }

    Map<String, Map<String, List<String>>> readPlatforms(NodeTuple t, Map<String, ConcernSpec> concerns,
                                                                Map<String, Map<String, EventName>> aliases) {
        Map<String, Map<String, List<String>>> out = new LinkedHashMap<>();
        if (t == null) {
            if (merge == null) {
                yaml.error("missing-key", null, "platforms", "missing", true);
            }
            return out;
        }
        if (!(t.getValueNode() instanceof MappingNode map)) {
            yaml.error("wrong-type", t.getValueNode(), "platforms", "must be a mapping of host to event chains", true);
            return out;
        }
        yaml.entries(map, "platforms").forEach((host, entry) -> {
            String path = "platforms." + host;
            checkHost(entry.getKeyNode(), path, host);
            if (!(entry.getValueNode() instanceof MappingNode hostMap)) {
                yaml.error("wrong-type", entry.getValueNode(), path, "must be a mapping of event to [concern, …]", true);
                return;
            }
            Map<String, List<String>> byEvent = new LinkedHashMap<>();
            yaml.entries(hostMap, path).forEach((event, chain) -> {
                String chainPath = path + "." + event;
                if (event.equals(FALLBACK_ONLY)) {
                    if (yaml.bool(chain, chainPath, false)) {
                        fallbackOnly.add(host);
                    }
                    return;
                }
                EventName ev = EventName.fromWire(event);
                if (ev == null) {
                    yaml.error("unknown-event", chain.getKeyNode(), chainPath, "unknown event '" + event + "'"
                            + NearMiss.hint(event, EventName.wireNames()), true);
                    return;
                }
                List<String> names = chain.getValueNode() instanceof MappingNode dropMap
                        ? droppedFromDefault(chainPath, host, event, chain, dropMap) : yaml.stringList(chain, chainPath);
                if (names == null) {
                    return;
                }
                Set<String> seen = new LinkedHashSet<>();
                for (String name : names) {
                    ConcernSpec c = concerns.get(name);
                    if (c == null) {
                        yaml.error("unknown-concern", chain.getValueNode(), chainPath, "unknown concern '" + name + "'"
                                + NearMiss.hint(name, concerns.keySet()), false);
                        skip(host, event, name + ": unknown concern (line " + ManifestNodes.line(chain.getValueNode()) + ")");
                    } else if (!seen.add(name)) {
                        yaml.error("duplicate-concern", chain.getValueNode(), chainPath, "concern '" + name + "' listed twice", false);
                        skip(host, event, name + ": listed twice, runs once (line " + ManifestNodes.line(chain.getValueNode()) + ")");
                    } else if (c.isBuiltin() && Builtins.descriptor(c.builtinName()) != null
                            && !Builtins.descriptor(c.builtinName()).bindsTo(ev)) {
                        yaml.error("wrong-event", chain.getValueNode(), chainPath, "built-in " + c.builtinName() + " (concern '" + name
                                + "') does nothing on " + event + "; it runs on "
                                + wireNames(Builtins.descriptor(c.builtinName()).events()), true);
                    } else if (c.isBuiltin() && Builtins.descriptor(c.builtinName()) != null
                            && Builtins.descriptor(c.builtinName()).cannotRunOn(ev, c.settings()) != null) {
                        yaml.error("wrong-event", chain.getValueNode(), chainPath, "concern '" + name + "' cannot run on " + event
                                + ": " + Builtins.descriptor(c.builtinName()).cannotRunOn(ev, c.settings()), true);
                    } else {
                        String cannot = CapabilityCheck.problem(host, ev, c, aliases.getOrDefault(host, Map.of()));
                        if (cannot != null) {
                            yaml.warn("cannot-refuse", chain.getValueNode(), chainPath, cannot);
                        }
                    }
                }
                byEvent.put(event, List.copyOf(seen));
            });
            out.put(host, byEvent);
        });
        return out;
    }


    /**
     * A chain written {@code {drop: [names]}} in a manifest that extends the default: the default
     * chain for this host and event without those concerns; {@code null} when it cannot be read.
     */
    private List<String> droppedFromDefault(String chainPath, String host, String event, NodeTuple chain,
                                            MappingNode map) {
        if (merge == null) {
            yaml.error("drop-needs-extends", chain.getValueNode(), chainPath, "a chain is a list of concern names; `{drop: [...]}` is for a"
                    + " manifest with `extends: default`", true);
            return null;
        }
        Map<String, NodeTuple> keys = yaml.entries(map, chainPath);
        for (String k : keys.keySet()) {
            if (!"drop".equals(k)) {
                yaml.error("unknown-key", keys.get(k).getKeyNode(), chainPath + "." + k, "unknown chain key; a chain over the default"
                        + " takes drop:" + NearMiss.hint(k, List.of("drop")), true);
            }
        }
        List<String> base = merge.defaultChain(host, event);
        List<String> dropped = yaml.stringList(keys.get("drop"), chainPath + ".drop");
        for (String name : dropped) {
            if (!base.contains(name)) {
                yaml.error("drop-not-in-chain", keys.get("drop").getValueNode(), chainPath + ".drop", "'" + name + "' is not in the default"
                        + " chain for " + host + "." + event + ", which is " + base + NearMiss.hint(name, base), true);
            }
        }
        List<String> out = new ArrayList<>();
        for (String name : base) {
            if (!dropped.contains(name)) {
                out.add(name);
            }
        }
        dropOrigins.computeIfAbsent(host, h -> new LinkedHashMap<>()).put(event, "default without " + dropped);
        return out;
    }

    private void skip(String host, String event, String entry) {
        skipped.computeIfAbsent(host, h -> new LinkedHashMap<>()).computeIfAbsent(event, e -> new ArrayList<>()).add(entry);
    }

    private void checkHost(Node node, String path, String host) {
        if (!Hosts.KNOWN.contains(host)) {
            yaml.error("unknown-host", node, path, "unknown host '" + host + "'; known hosts are " + Hosts.KNOWN
                    + NearMiss.hint(host, Hosts.KNOWN), true);
        }
    }

    private static List<String> wireNames(Set<EventName> events) {
        List<String> out = new ArrayList<>();
        for (EventName e : EventName.values()) {
            if (events.contains(e)) {
                out.add(e.wire());
            }
        }
        return out;
    }
}
