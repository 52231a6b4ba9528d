package dev.agentwarden.manifest;

import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.concern.Escalation;
import dev.agentwarden.concern.Posture;
import dev.agentwarden.event.EventName;
import dev.agentwarden.json.Fields;
import dev.agentwarden.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/** The compiled-manifest cache format: a JSON rendering of {@link Manifest}, read on the hot path. */
final class ManifestCodec {
    /** Bumped whenever the compiled form or the compiler's semantics change. */
    static final int FORMAT = 6;

    private static final Fields.Failure<IllegalArgumentException> DEFECT = Fields.illegalArgument("");
    /** No list limit of its own: the whole file is read capped ({@code ManifestLoader.MAX_COMPILED_BYTES}). */
    private static final int ANY = Integer.MAX_VALUE;

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
            if (c.escalate() != null) {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("after", (long) c.escalate().after());
                e.put("within", c.escalate().withinWire());
                e.put("then", c.escalate().thenWire());
                o.put("escalate", e);
            }
            concerns.put(name, o);
        });
        root.put("concerns", concerns);
        root.put("chains", m.chains());
        root.put("decision_log_verbatim_reasons", m.verbatimReasons());
        root.put("chain_skipped", m.skipped());
        return Json.write(root);
    }

    /**
     * Reads a compiled manifest; plain loops only, as this runs on every cold dispatch. Any defect is an
     * {@link IllegalArgumentException} naming the field, and the caller compiles the source again.
     */
    static Manifest read(String source, String text) {
        Fields<IllegalArgumentException> root = Fields.of(Json.parseObject(text), "compiled manifest", DEFECT);
        if (!(root.map().get("format") instanceof Long f) || f != FORMAT) {
            throw new IllegalArgumentException("compiled manifest format " + root.map().get("format") + " is not " + FORMAT);
        }
        String base = root.optionalString("extends_sha256");
        if (base != null && !base.equals(ManifestMerge.defaultSha256())) {
            throw new IllegalArgumentException("compiled over another default manifest");
        }
        Map<String, Map<String, EventName>> aliases = new LinkedHashMap<>();
        Fields<IllegalArgumentException> aliasesByHost = root.object("aliases");
        for (String host : aliasesByHost.map().keySet()) {
            Fields<IllegalArgumentException> h = aliasesByHost.object(host);
            Map<String, EventName> byNative = new LinkedHashMap<>();
            for (String nativeEvent : h.map().keySet()) {
                byNative.put(nativeEvent, EventName.fromWire(h.string(nativeEvent)));
            }
            aliases.put(host, byNative);
        }
        Map<String, ConcernSpec> concerns = new LinkedHashMap<>();
        Fields<IllegalArgumentException> concernsByName = root.object("concerns");
        for (String name : concernsByName.map().keySet()) {
            Fields<IllegalArgumentException> o = concernsByName.object(name);
            concerns.put(name, new ConcernSpec(name, o.string("script"), o.strings("args", ANY), o.bool("fail_closed"),
                    Posture.fromWire(o.string("posture")), new LinkedHashSet<>(o.strings("tools", ANY)),
                    (int) o.positiveLong("timeout_ms", 0), o.bool("skip_on_refusal_retry"),
                    (int) o.positiveLong("nudge_rank", Integer.MIN_VALUE), Fields.asMap(o.raw("settings")),
                    new LinkedHashSet<>(o.strings("needs_payload_bodies", ANY)), o.has("escalate") ? Escalation.parse(o.map().get("escalate")) : null));
        }
        Map<String, Map<String, Map<String, List<String>>>> chains = new LinkedHashMap<>();
        Fields<IllegalArgumentException> chainsByHost = root.object("chains");
        for (String host : chainsByHost.map().keySet()) {
            Fields<IllegalArgumentException> h = chainsByHost.object(host);
            Map<String, Map<String, List<String>>> byEvent = new LinkedHashMap<>();
            for (String event : h.map().keySet()) {
                Fields<IllegalArgumentException> roles = h.object(event);
                Map<String, List<String>> byRole = new LinkedHashMap<>();
                for (String role : roles.map().keySet()) {
                    byRole.put(role, roles.strings(role, ANY));
                }
                byEvent.put(event, byRole);
            }
            chains.put(host, byEvent);
        }
        Map<String, Map<String, List<String>>> skipped = new LinkedHashMap<>();
        Fields<IllegalArgumentException> skippedByHost = root.object("chain_skipped");
        for (String host : skippedByHost.map().keySet()) {
            Fields<IllegalArgumentException> h = skippedByHost.object(host);
            Map<String, List<String>> byEvent = new LinkedHashMap<>();
            for (String event : h.map().keySet()) {
                byEvent.put(event, h.strings(event, ANY));
            }
            skipped.put(host, byEvent);
        }
        return new Manifest(source, root.optionalString("source_sha256"), aliases, concerns, chains,
                Boolean.TRUE.equals(root.map().get("decision_log_verbatim_reasons")), skipped);
    }
}
