package dev.agentwarden.managed;

import dev.agentwarden.json.Json;
import dev.agentwarden.release.ProjectManifestSignature;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * What the administrator sets for Warden itself, from {@code /etc/agent-warden/settings.json}; every
 * field is optional and an absent one leaves the choice where it is without a managed layer.
 *
 * @param failMode       {@code "open"} or {@code "closed"}: how an event Warden cannot evaluate is
 *                       answered, in place of {@code WARDEN_FAIL_MODE} (which the governed agent can unset)
 * @param projectScripts whether the project's (and user's) process concerns may run at all
 * @param reasons        {@code "verbatim"} or {@code "hashed"}: how the decision log keeps concerns' reasons
 * @param minVersion     the oldest Warden allowed to judge events ({@code "0.9"}, {@code "1.2.3"}); an older
 *                       one refuses every event, telling the user to upgrade; {@code null} for any
 * @param retentionDays  how many days of decision log a project keeps: segments (a month each) that lie
 *                       wholly before that many days ago are removed; 0 for no limit
 * @param signers        hex raw Ed25519 keys whose signature ({@code .warden/manifest.yaml.sig}) puts a project
 *                       manifest in force without {@code warden trust}; empty for none
 * @param telemetry      the OTLP collector {@code warden export} and the resident's live export use where the user's environment names none, or {@code null}
 */
public record ManagedSettings(String failMode, boolean projectScripts, String reasons, String minVersion,
                              int retentionDays, List<String> signers, Telemetry telemetry) {
    /** No settings file: nothing is decided by the administrator. */
    static final ManagedSettings NONE = new ManagedSettings(null, true, null, null, 0, List.of(), null);

    /**
     * The fleet's collector: {@code endpoint} (the base URL, as {@code OTEL_EXPORTER_OTLP_ENDPOINT}),
     * {@code headers} and {@code resource} attributes, each filling in its {@code OTEL_*} variable where that is unset.
     */
    public record Telemetry(String endpoint, Map<String, String> headers, Map<String, String> resource) {
    }

    /**
     * {@code env} with the managed telemetry filled in where the user's own {@code OTEL_*} variable is unset
     * (empty counts as unset): an explicit choice of the user's wins, the administrator's is the default.
     */
    public Map<String, String> withTelemetry(Map<String, String> env) {
        if (telemetry == null) {
            return env;
        }
        Map<String, String> out = new java.util.HashMap<>(env);
        fill(out, "OTEL_EXPORTER_OTLP_ENDPOINT", telemetry.endpoint());
        fill(out, "OTEL_EXPORTER_OTLP_HEADERS", list(telemetry.headers()));
        fill(out, "OTEL_RESOURCE_ATTRIBUTES", list(telemetry.resource()));
        return out;
    }

    /**
     * The environment a long-lived server's live export starts from: {@link #withTelemetry}, and when
     * the administrator names a collector and the user has not chosen one ({@code WARDEN_OTLP_LIVE}
     * unset), the switch turned on, so every machine of the fleet exports to it. The user's own choice
     * (another collector, {@code OTEL_SDK_DISABLED=true}) still wins, as for {@code warden export}.
     */
    public Map<String, String> forLiveExport(Map<String, String> env, String liveSwitch) {
        Map<String, String> out = withTelemetry(env);
        if (telemetry != null && telemetry.endpoint() != null && !telemetry.endpoint().isEmpty()) {
            String own = out.get(liveSwitch);
            if (own == null || own.isBlank()) {
                out = new java.util.HashMap<>(out);
                out.put(liveSwitch, "on");
            }
        }
        return out;
    }

    private static void fill(Map<String, String> env, String name, String value) {
        String own = env.get(name);
        if ((own == null || own.isBlank()) && value != null && !value.isEmpty()) {
            env.put(name, value);
        }
    }

    /** A {@code key=value,...} list, percent-encoded as the OpenTelemetry specification reads it. */
    private static String list(Map<String, String> entries) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> e : entries.entrySet()) {
            sb.append(sb.length() == 0 ? "" : ",").append(java.net.URLEncoder.encode(e.getKey(), java.nio.charset.StandardCharsets.UTF_8))
                    .append('=').append(java.net.URLEncoder.encode(e.getValue(), java.nio.charset.StandardCharsets.UTF_8));
        }
        return sb.toString();
    }
    /** Longest retention accepted: 100 years. */
    static final int MAX_RETENTION_DAYS = 36_500;
    private static final String KNOWN = "fail_mode, project_scripts, reasons, min_version, retention, signers, telemetry";

    /** Whether an event Warden cannot evaluate is refused, given the fail mode the environment asked for. */
    public boolean failClosed(boolean environmentSaysClosed) {
        return failMode != null ? failMode.equals("closed") : environmentSaysClosed;
    }

    /**
     * The settings a file holds, or an exception naming the key that is wrong: unknown keys are
     * refused (a misspelt {@code fail_mode} must not quietly leave fail-open in force).
     */
    static ManagedSettings parse(String text) {
        Map<String, Object> o = Json.parseObject(text);
        String failMode = null;
        boolean projectScripts = true;
        String reasons = null;
        String minVersion = null;
        int retentionDays = 0;
        List<String> signers = List.of();
        Telemetry telemetry = null;
        for (Map.Entry<String, Object> e : o.entrySet()) {
            String key = e.getKey();
            Object v = e.getValue();
            if (key.equals("fail_mode")) {
                failMode = oneOf(key, v, "open", "closed");
            } else if (key.equals("project_scripts")) {
                if (!(v instanceof Boolean b)) {
                    throw new IllegalArgumentException("project_scripts must be true or false");
                }
                projectScripts = b;
            } else if (key.equals("reasons")) {
                reasons = oneOf(key, v, "verbatim", "hashed");
            } else if (key.equals("min_version")) {
                if (!(v instanceof String s) || WardenVersion.parts(s) == null) {
                    throw new IllegalArgumentException("min_version must be a version such as \"0.9\" or \"1.2.3\", not "
                            + Json.write(v));
                }
                minVersion = s;
            } else if (key.equals("retention")) {
                if (!(v instanceof Long days) || days < 1 || days > MAX_RETENTION_DAYS) {
                    throw new IllegalArgumentException("retention must be a whole number of days from 1 to "
                            + MAX_RETENTION_DAYS + ", not " + Json.write(v));
                }
                retentionDays = (int) (long) days;
            } else if (key.equals("telemetry")) {
                telemetry = telemetry(v);
            } else if (key.equals("signers")) {
                signers = signers(v);
            } else {
                throw new IllegalArgumentException("unknown key '" + key + "' (known: " + KNOWN + ")");
            }
        }
        return new ManagedSettings(failMode, projectScripts, reasons, minVersion, retentionDays, signers, telemetry);
    }

    private static Telemetry telemetry(Object v) {
        if (!(v instanceof Map<?, ?> o)) {
            throw new IllegalArgumentException("telemetry must be an object {endpoint, headers, resource}");
        }
        String endpoint = null;
        Map<String, String> headers = Map.of();
        Map<String, String> resource = Map.of();
        for (Map.Entry<?, ?> e : o.entrySet()) {
            String key = String.valueOf(e.getKey());
            if (key.equals("endpoint")) {
                if (!(e.getValue() instanceof String s) || !(s.startsWith("https://") || s.startsWith("http://"))) {
                    throw new IllegalArgumentException("telemetry.endpoint must be the collector's http(s) base URL, not "
                            + Json.write(e.getValue()));
                }
                endpoint = s;
            } else if (key.equals("headers") || key.equals("resource")) {
                Map<String, String> strings = new java.util.LinkedHashMap<>();
                if (!(e.getValue() instanceof Map<?, ?> m)) {
                    throw new IllegalArgumentException("telemetry." + key + " must be an object of strings");
                }
                for (Map.Entry<?, ?> kv : m.entrySet()) {
                    if (!(kv.getValue() instanceof String s)) {
                        throw new IllegalArgumentException("telemetry." + key + "." + kv.getKey() + " must be a string");
                    }
                    strings.put(String.valueOf(kv.getKey()), s);
                }
                if (key.equals("headers")) {
                    headers = strings;
                } else {
                    resource = strings;
                }
            } else {
                throw new IllegalArgumentException("unknown key 'telemetry." + key + "' (known: endpoint, headers, resource)");
            }
        }
        if (endpoint == null) {
            throw new IllegalArgumentException("telemetry.endpoint is missing");
        }
        return new Telemetry(endpoint, headers, resource);
    }

    /** The signers' keys, each given as {@code warden release keygen}'s {@code .pub.pem} text (or its base64 body). */
    private static List<String> signers(Object v) {
        if (!(v instanceof List<?> list)) {
            throw new IllegalArgumentException("signers must be a list of Ed25519 public keys (PEM text)");
        }
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            byte[] raw = list.get(i) instanceof String s ? ProjectManifestSignature.signerKey(s) : null;
            if (raw == null) {
                throw new IllegalArgumentException("signers[" + i + "] is not an Ed25519 public key"
                        + " (the text of a .pub.pem that `warden release keygen` writes)");
            }
            keys.add(HexFormat.of().formatHex(raw));
        }
        return List.copyOf(keys);
    }

    private static String oneOf(String key, Object v, String a, String b) {
        if (a.equals(v) || b.equals(v)) {
            return (String) v;
        }
        throw new IllegalArgumentException(key + " must be \"" + a + "\" or \"" + b + "\", not " + Json.write(v));
    }
}
