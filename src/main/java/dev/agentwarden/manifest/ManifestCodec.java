package dev.agentwarden.manifest;

import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.concern.Posture;
import dev.agentwarden.event.EventName;
import dev.agentwarden.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/** The compiled-manifest cache format: a JSON rendering of {@link Manifest}, read on the hot path. */
final class ManifestCodec {
    /** Bumped whenever the compiled form or the compiler's semantics change. */
    static final int FORMAT = 3;

    private ManifestCodec() {
    }

    static String write(Manifest m) {
        return write(m, false);
    }

    /**
     * @param overDefault the manifest extends the shipped default: its compiled form names that
     *                    default's SHA-256 and is recompiled once Warden ships another
     */
    static String write(Manifest m, boolean overDefault) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("format", (long) FORMAT);
        root.put("source_sha256", m.sourceSha256());
        if (overDefault) {
            root.put("extends_sha256", ManifestMerge.defaultSha256());
        }
        Map<String, Object> aliases = new LinkedHashMap<>();
        m.aliases().forEach((host, byNative) -> {
            Map<String, Object> h = new LinkedHashMap<>();
            byNative.forEach((n, e) -> h.put(n, e.wire()));
            aliases.put(host, h);
        });
        root.put("aliases", aliases);
        Map<String, Object> concerns = new LinkedHashMap<>();
        m.concerns().forEach((name, c) -> {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("script", c.script());
            o.put("args", c.args());
            o.put("fail_closed", c.failClosed());
            o.put("posture", c.posture().wire());
            o.put("tools", new ArrayList<>(c.tools()));
            o.put("timeout_ms", (long) c.timeoutMs());
            o.put("skip_on_refusal_retry", c.skipOnRefusalRetry());
            o.put("nudge_rank", (long) c.nudgeRank());
            o.put("settings", c.settings());
            o.put("needs_payload_bodies", new ArrayList<>(c.payloadBodies()));
            concerns.put(name, o);
        });
        root.put("concerns", concerns);
        root.put("chains", m.chains());
        root.put("decision_log_verbatim_reasons", m.verbatimReasons());
        return Json.write(root);
    }

    /** Reads a compiled manifest; plain loops only, as this runs on every cold dispatch. */
    @SuppressWarnings("unchecked")
    static Manifest read(String source, String text) {
        Map<String, Object> root = Json.parseObject(text);
        if (!(root.get("format") instanceof Long f) || f != FORMAT) {
            throw new IllegalArgumentException("compiled manifest format " + root.get("format") + " is not " + FORMAT);
        }
        Object base = root.get("extends_sha256");
        if (base != null && !base.equals(ManifestMerge.defaultSha256())) {
            throw new IllegalArgumentException("compiled over another default manifest");
        }
        Map<String, Map<String, EventName>> aliases = new LinkedHashMap<>();
        for (Map.Entry<String, Object> host : ((Map<String, Object>) root.get("aliases")).entrySet()) {
            Map<String, EventName> byNative = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : ((Map<String, Object>) host.getValue()).entrySet()) {
                byNative.put(e.getKey(), EventName.fromWire((String) e.getValue()));
            }
            aliases.put(host.getKey(), byNative);
        }
        Map<String, ConcernSpec> concerns = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : ((Map<String, Object>) root.get("concerns")).entrySet()) {
            Map<String, Object> o = (Map<String, Object>) e.getValue();
            concerns.put(e.getKey(), new ConcernSpec(e.getKey(), (String) o.get("script"), strings(o.get("args")),
                    (Boolean) o.get("fail_closed"), Posture.fromWire((String) o.get("posture")),
                    new LinkedHashSet<>(strings(o.get("tools"))), ((Long) o.get("timeout_ms")).intValue(),
                    (Boolean) o.get("skip_on_refusal_retry"), ((Long) o.get("nudge_rank")).intValue(),
                    (Map<String, Object>) o.get("settings"), new LinkedHashSet<>(strings(o.get("needs_payload_bodies")))));
        }
        Map<String, Map<String, Map<String, List<String>>>> chains = new LinkedHashMap<>();
        for (Map.Entry<String, Object> host : ((Map<String, Object>) root.get("chains")).entrySet()) {
            Map<String, Map<String, List<String>>> byEvent = new LinkedHashMap<>();
            for (Map.Entry<String, Object> event : ((Map<String, Object>) host.getValue()).entrySet()) {
                Map<String, List<String>> byRole = new LinkedHashMap<>();
                for (Map.Entry<String, Object> role : ((Map<String, Object>) event.getValue()).entrySet()) {
                    byRole.put(role.getKey(), strings(role.getValue()));
                }
                byEvent.put(event.getKey(), byRole);
            }
            chains.put(host.getKey(), byEvent);
        }
        return new Manifest(source, (String) root.get("source_sha256"), aliases, concerns, chains,
                Boolean.TRUE.equals(root.get("decision_log_verbatim_reasons")));
    }

    private static List<String> strings(Object list) {
        List<String> out = new ArrayList<>();
        for (Object o : (List<?>) list) {
            out.add((String) o);
        }
        return out;
    }
}
