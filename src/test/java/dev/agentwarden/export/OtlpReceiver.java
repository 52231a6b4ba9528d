package dev.agentwarden.export;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPInputStream;

/**
 * An OTLP/HTTP receiver on 127.0.0.1: keeps each request's body and headers as received and
 * decodes them with the official protobuf classes (opentelemetry-proto). Public for the host suites
 * ({@code dev.agentwarden.e2e}), where a real host exports to it too.
 */
public final class OtlpReceiver implements AutoCloseable {
    /** One request as received, its body gunzipped when it came with {@code Content-Encoding: gzip}. */
    public record Request(String path, String contentType, Map<String, List<String>> headers, byte[] body) {
    }

    private final HttpServer server;
    private final List<Request> requests = new ArrayList<>();
    private final Map<String, Integer> failWith = new ConcurrentHashMap<>();

    public OtlpReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            byte[] body;
            boolean gzip = "gzip".equals(exchange.getRequestHeaders().getFirst("Content-Encoding"));
            try (InputStream in = gzip ? new GZIPInputStream(exchange.getRequestBody()) : exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            String path = exchange.getRequestURI().getPath();
            synchronized (requests) {
                requests.add(new Request(path, exchange.getRequestHeaders().getFirst("Content-Type"),
                        Map.copyOf(exchange.getRequestHeaders()), body));
            }
            int status = failWith.getOrDefault(path, 200);
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            // an empty Export*ServiceResponse is zero bytes
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
    }

    /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT would be set. */
    public String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Answers every request to {@code path} with {@code status}. */
    public void failWith(String path, int status) {
        failWith.put(path, status);
    }

    public List<Request> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    public List<Request> to(String path) {
        List<Request> out = new ArrayList<>();
        for (Request r : requests()) {
            if (r.path().equals(path)) {
                out.add(r);
            }
        }
        return out;
    }

    public List<Span> spans() throws IOException {
        List<Span> out = new ArrayList<>();
        for (Request r : to("/v1/traces")) {
            for (ResourceSpans rs : ExportTraceServiceRequest.parseFrom(r.body()).getResourceSpansList()) {
                for (ScopeSpans ss : rs.getScopeSpansList()) {
                    out.addAll(ss.getSpansList());
                }
            }
        }
        return out;
    }

    /** The spans of the resources whose {@code service.name} is {@code service}. */
    public List<Span> spansOf(String service) throws IOException {
        List<Span> out = new ArrayList<>();
        for (Request r : to("/v1/traces")) {
            for (ResourceSpans rs : ExportTraceServiceRequest.parseFrom(r.body()).getResourceSpansList()) {
                boolean named = rs.getResource().getAttributesList().stream().anyMatch(a -> a.getKey().equals("service.name")
                        && a.getValue().getStringValue().equals(service));
                if (named) {
                    for (ScopeSpans ss : rs.getScopeSpansList()) {
                        out.addAll(ss.getSpansList());
                    }
                }
            }
        }
        return out;
    }

    public List<Resource> spanResources() throws IOException {
        List<Resource> out = new ArrayList<>();
        for (Request r : to("/v1/traces")) {
            for (ResourceSpans rs : ExportTraceServiceRequest.parseFrom(r.body()).getResourceSpansList()) {
                out.add(rs.getResource());
            }
        }
        return out;
    }

    public List<LogRecord> logRecords() throws IOException {
        List<LogRecord> out = new ArrayList<>();
        for (Request r : to("/v1/logs")) {
            for (ResourceLogs rl : ExportLogsServiceRequest.parseFrom(r.body()).getResourceLogsList()) {
                for (ScopeLogs sl : rl.getScopeLogsList()) {
                    out.addAll(sl.getLogRecordsList());
                }
            }
        }
        return out;
    }

    public List<Metric> metrics() throws IOException {
        List<Metric> out = new ArrayList<>();
        for (Request r : to("/v1/metrics")) {
            for (ResourceMetrics rm : ExportMetricsServiceRequest.parseFrom(r.body()).getResourceMetricsList()) {
                for (ScopeMetrics sm : rm.getScopeMetricsList()) {
                    out.addAll(sm.getMetricsList());
                }
            }
        }
        return out;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
