package dev.agentwarden.export;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where and as whom to export: the collector's base URL (as {@code OTEL_EXPORTER_OTLP_ENDPOINT} is;
 * {@code /v1/traces}, {@code /v1/logs} and {@code /v1/metrics} are appended), the request headers
 * ({@code OTEL_EXPORTER_OTLP_HEADERS}) and the resource attributes ({@code OTEL_RESOURCE_ATTRIBUTES},
 * {@code OTEL_SERVICE_NAME}, default service name {@value #DEFAULT_SERVICE_NAME}) and the compression of
 * the bodies ({@code OTEL_EXPORTER_OTLP_COMPRESSION}: {@code gzip} or {@code none}, the default).
 *
 * @param base       the base URL, without a trailing slash
 * @param headers    header names and values, in order
 * @param resource   resource attributes, {@code service.name} included
 * @param timeoutMs  the deadline of each request (connect included)
 * @param compression {@code gzip} or {@code none}
 */
public record OtlpTarget(String base, Map<String, String> headers, Map<String, String> resource, long timeoutMs,
                         String compression) {
    static final String DEFAULT_SERVICE_NAME = "agent-warden";
    /** Longest list read from one {@code OTEL_*} variable. */
    static final int MAX_LIST_CHARS = 8192;

    /**
     * The target for {@code --otlp url} (or, without it, {@code OTEL_EXPORTER_OTLP_ENDPOINT}) and the
     * other {@code OTEL_*} variables of {@code env}.
     */
    public static OtlpTarget of(String url, Map<String, String> env, long timeoutMs) {
        String endpoint = url != null ? url : env.get("OTEL_EXPORTER_OTLP_ENDPOINT");
        if (endpoint == null || endpoint.isBlank()) {
            throw new IllegalArgumentException("no collector: pass --otlp URL or set OTEL_EXPORTER_OTLP_ENDPOINT "
                    + "(the collector's base, like http://127.0.0.1:4318)");
        }
        Map<String, String> resource = new LinkedHashMap<>();
        resource.put("service.name", DEFAULT_SERVICE_NAME);
        resource.putAll(list(env.get("OTEL_RESOURCE_ATTRIBUTES"), "OTEL_RESOURCE_ATTRIBUTES"));
        String service = env.get("OTEL_SERVICE_NAME");
        if (service != null && !service.isBlank()) {
            resource.put("service.name", service.trim());
        }
        String compression = env.getOrDefault("OTEL_EXPORTER_OTLP_COMPRESSION", "none").trim();
        if (!compression.equals("gzip") && !compression.equals("none") && !compression.isEmpty()) {
            throw new IllegalArgumentException("OTEL_EXPORTER_OTLP_COMPRESSION is " + compression + "; give gzip or none");
        }
        return new OtlpTarget(base(endpoint.trim()), list(env.get("OTEL_EXPORTER_OTLP_HEADERS"),
                "OTEL_EXPORTER_OTLP_HEADERS"), resource, timeoutMs, compression.isEmpty() ? "none" : compression);
    }

    /** The URL of one signal: {@code traces}, {@code logs} or {@code metrics}. */
    public String signal(String name) {
        return base + "/v1/" + name;
    }

    private static String base(String endpoint) {
        URI uri;
        try {
            uri = new URI(endpoint);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("collector URL " + endpoint + " is not a URL (" + e.getReason() + ")");
        }
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException("collector URL " + endpoint
                    + " is not an http:// or https:// URL with a host, like http://127.0.0.1:4318");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("collector URL " + endpoint + " has a query or fragment; give its base");
        }
        String s = endpoint;
        while (s.endsWith("/")) {
            s = s.substring(0, s.length() - 1);
        }
        return s;
    }

    /** A {@code key=value,key=value} list, values percent-decoded, as the OpenTelemetry specification defines it. */
    static Map<String, String> list(String text, String variable) {
        Map<String, String> out = new LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return out;
        }
        if (text.length() > MAX_LIST_CHARS) {
            throw new IllegalArgumentException(variable + " is longer than " + MAX_LIST_CHARS + " characters");
        }
        for (String item : text.split(",")) {
            if (item.isBlank()) {
                continue;
            }
            int eq = item.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(variable + " has an entry without key=value (entry "
                        + (out.size() + 1) + ")");
            }
            try {
                out.put(URLDecoder.decode(item.substring(0, eq).trim(), StandardCharsets.UTF_8),
                        URLDecoder.decode(item.substring(eq + 1).trim(), StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(variable + " entry " + (out.size() + 1) + " is not percent-encoded");
            }
        }
        return out;
    }
}
