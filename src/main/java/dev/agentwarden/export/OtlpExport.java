package dev.agentwarden.export;

import dev.agentwarden.decision.DecisionReader;
import dev.agentwarden.ledger.LedgerPaths;
import dev.agentwarden.ledger.LedgerReader;
import dev.agentwarden.ledger.UtcTime;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.logs.Logger;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporterBuilder;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporterBuilder;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporterBuilder;
import io.opentelemetry.sdk.common.export.RetryPolicy;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;

/**
 * One history export: the subagent ledger as {@code invoke_agent} spans, then the decision log as
 * {@code execute_tool} spans (a hook without a tool as {@code warden.hook {event}}) with one
 * {@code apply_guardrail} child per concern that ran, each decision also as a log record, and
 * counts and a latency histogram as metrics. Only fields of those lines are exported; nothing else
 * of the project is read.
 */
public final class OtlpExport {
    /** Refs of subagent runs remembered for joining decisions and children to their run. */
    static final int MAX_REMEMBERED_RUNS = 100_000;
    private static final String SCOPE = DecisionMapping.SCOPE;
    private static final java.util.logging.Logger SDK_LOG = java.util.logging.Logger.getLogger("io.opentelemetry");

    /**
     * What was sent.
     *
     * @param decisions   decision lines exported
     * @param runs        subagent runs exported
     * @param spans       spans the collector took
     * @param logRecords  log records the collector took
     * @param unreadable  decision lines skipped as unreadable
     */
    public record Result(long decisions, long runs, long spans, long logRecords, long unreadable) {
    }

    private final String root;
    private final OtlpTarget target;
    private final long sinceMs;
    private final Clock clock;
    private final Tracer tracer;
    private final Logger logger;
    private final Batches.Spans spans;
    private final Batches.Logs logs;
    private final MetricsOnce metrics;
    private final SdkTracerProvider tracerProvider;
    private final SdkLoggerProvider loggerProvider;
    private final SdkMeterProvider meterProvider;
    private final DecisionMapping mapping;
    /** Spans of runs started and not yet stopped, by ref. */
    private final Map<String, Span> open = new HashMap<>();
    private final Map<String, Long> openStartMs = new HashMap<>();
    /** The span of each run seen, by ref, the oldest forgotten past {@link #MAX_REMEMBERED_RUNS}. */
    private final Map<String, SpanContext> runs = new LinkedHashMap<>(16, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, SpanContext> eldest) {
            return size() > MAX_REMEMBERED_RUNS;
        }
    };
    private long decisions;
    private long runCount;

    private OtlpExport(String root, OtlpTarget target, long sinceMs, Clock clock) {
        this.root = root;
        this.target = target;
        this.sinceMs = sinceMs;
        this.clock = clock;
        long timeout = target.timeoutMs();
        Resource resource = Resource.getDefault().merge(Resource.create(attributes(target.resource())));
        spans = new Batches.Spans(spanExporter(target), target.signal("traces"), awaitMs(timeout));
        logs = new Batches.Logs(logExporter(target), target.signal("logs"), awaitMs(timeout));
        metrics = new MetricsOnce(metricExporter(target));
        tracerProvider = SdkTracerProvider.builder().setResource(resource).addSpanProcessor(spans).build();
        loggerProvider = SdkLoggerProvider.builder().setResource(resource).addLogRecordProcessor(logs).build();
        meterProvider = SdkMeterProvider.builder().setResource(resource).registerMetricReader(metrics).build();
        tracer = tracerProvider.get(SCOPE);
        logger = loggerProvider.get(SCOPE);
        Meter meter = meterProvider.get(SCOPE);
        mapping = new DecisionMapping(tracer, logger, meter, clock, runs::get);
    }

    /**
     * Exports the project at {@code root} from {@code sinceMs} on ({@link Long#MIN_VALUE}: all).
     *
     * @throws ExportFailed when a request failed or went unanswered (what was sent before stays sent)
     */
    public static Result run(String root, OtlpTarget target, long sinceMs, Clock clock) throws IOException, ExportFailed {
        Level before = SDK_LOG.getLevel();
        // the exporters log failures with stack traces; the command reports them in one line instead
        SDK_LOG.setLevel(Level.OFF);
        OtlpExport export = new OtlpExport(root, target, sinceMs, clock);
        try {
            return export.run();
        } finally {
            export.tracerProvider.shutdown().join(target.timeoutMs(), TimeUnit.MILLISECONDS);
            export.loggerProvider.shutdown().join(target.timeoutMs(), TimeUnit.MILLISECONDS);
            export.meterProvider.shutdown().join(target.timeoutMs(), TimeUnit.MILLISECONDS);
            SDK_LOG.setLevel(before);
        }
    }

    private Result run() throws IOException, ExportFailed {
        readLedger();
        check();
        DecisionReader reader = new DecisionReader(root);
        String fromMonth = sinceMs == Long.MIN_VALUE ? null : UtcTime.month(Math.max(0, sinceMs));
        try {
            reader.read(fromMonth, d -> {
                decision(d);
                if (spans.failure() != null || logs.failure() != null) {
                    throw new Stop();
                }
            });
        } catch (Stop stopped) {
            check();
        }
        tracerProvider.forceFlush();
        loggerProvider.forceFlush();
        check();
        String failed = metrics.send(target.signal("metrics"), awaitMs(target.timeoutMs()));
        if (failed != null) {
            throw new ExportFailed(failed);
        }
        return new Result(decisions, runCount, spans.sent(), logs.sent(), reader.unreadable());
    }

    private void check() throws ExportFailed {
        if (spans.failure() != null) {
            throw new ExportFailed(spans.failure());
        }
        if (logs.failure() != null) {
            throw new ExportFailed(logs.failure());
        }
    }

    /** Unwinds the reader when a request failed. */
    private static final class Stop extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stop() {
            super(null, null, false, false);
        }
    }

    // ---- the ledger: one invoke_agent span per subagent run -----------------------------------

    private void readLedger() throws IOException {
        LedgerReader.read(LedgerPaths.forRoot(root), entry -> {
            String event = entry.string("event");
            Long ts = millis(entry.string("ts"));
            String ref = entry.string("ref");
            if (event == null || ts == null || ref == null) {
                return;
            }
            switch (event) {
                case "subagent_start" -> start(entry.fields(), ref, ts);
                case "subagent_stop" -> stop(entry.fields(), ref, ts, true);
                case "subagent_reaped" -> stop(entry.fields(), ref, ts, false);
                default -> {
                }
            }
        });
        for (Map.Entry<String, Span> e : open.entrySet()) {
            long started = openStartMs.get(e.getKey());
            if (started >= sinceMs) {
                // never returned (yet): a span of no length, marked so
                e.getValue().setAttribute("warden.subagent.returned", false);
                e.getValue().setAttribute("warden.subagent.open", true);
                e.getValue().end(started, TimeUnit.MILLISECONDS);
                runCount++;
            }
        }
        open.clear();
    }

    private void start(Map<String, Object> f, String ref, long ts) {
        Span span = runSpan(f, ref, ts);
        open.put(ref, span);
        openStartMs.put(ref, ts);
        runs.put(ref, span.getSpanContext());
    }

    private void stop(Map<String, Object> f, String ref, long ts, boolean returned) {
        Span span = open.remove(ref);
        Long started = openStartMs.remove(ref);
        if (span == null) {
            Long duration = f.get("duration_ms") instanceof Number n ? n.longValue()
                    : f.get("age_ms") instanceof Number n ? n.longValue() : null;
            started = duration == null ? ts : ts - duration;
            span = runSpan(f, ref, started);
            span.setAttribute("warden.subagent.start_seen", false);
            runs.put(ref, span.getSpanContext());
        }
        if (ts < sinceMs && started < sinceMs) {
            return; // before the window: never ended, never sent
        }
        span.setAttribute("warden.subagent.returned", returned);
        set(span, "warden.subagent.reaped_reason", returned ? null : f.get("reason"));
        set(span, "warden.subagent.envelope_parse", f.get("envelope_parse"));
        set(span, "warden.subagent.duration_ms", f.get("duration_ms"));
        set(span, "warden.subagent.age_ms", f.get("age_ms"));
        span.end(ts, TimeUnit.MILLISECONDS);
        runCount++;
    }

    private Span runSpan(Map<String, Object> f, String ref, long startMs) {
        String type = f.get("agent_type") instanceof String s ? s : null;
        SpanBuilder b = tracer.spanBuilder(type == null ? GenAi.INVOKE_AGENT : GenAi.INVOKE_AGENT + " " + type)
                .setSpanKind(SpanKind.INTERNAL)
                .setStartTimestamp(startMs, TimeUnit.MILLISECONDS);
        SpanContext parent = f.get("parent_ref") instanceof String p ? runs.get(p) : null;
        if (parent != null) {
            b.setParent(Context.root().with(Span.wrap(parent)));
        } else {
            b.setNoParent();
        }
        Span span = b.startSpan();
        span.setAttribute(GenAi.OPERATION, GenAi.INVOKE_AGENT);
        set(span, GenAi.AGENT_NAME, type);
        span.setAttribute(GenAi.AGENT_ID, ref);
        set(span, GenAi.CONVERSATION_ID, f.get("session_id"));
        set(span, "warden.subagent.parent_ref", f.get("parent_ref"));
        set(span, "warden.subagent.depth", f.get("depth"));
        set(span, "warden.subagent.depth_basis", f.get("depth_basis"));
        return span;
    }

    // ---- the decision log ----------------------------------------------------------------------

    private void decision(Map<String, Object> d) {
        Long ts = millis(str(d.get("ts")));
        if (ts == null || ts < sinceMs) {
            return;
        }
        decisions++;
        mapping.decision(d, ts);
    }

    // ---- helpers -------------------------------------------------------------------------------

    private static void set(Span span, String key, Object value) {
        DecisionMapping.set(span, key, value);
    }

    private static String str(Object o) {
        return DecisionMapping.str(o);
    }

    private static Long millis(String ts) {
        return DecisionMapping.millis(ts);
    }
    static Attributes attributes(Map<String, String> map) {
        AttributesBuilder b = Attributes.builder();
        for (Map.Entry<String, String> e : map.entrySet()) {
            b.put(e.getKey(), e.getValue());
        }
        return b.build();
    }

    /** How long to wait for one request: its deadline, once per attempt, plus the backoff between. */
    private static long awaitMs(long timeoutMs) {
        return RETRY_ATTEMPTS * timeoutMs + 2_000;
    }

    private static final int RETRY_ATTEMPTS = 3;

    private static RetryPolicy retry() {
        return RetryPolicy.builder().setMaxAttempts(RETRY_ATTEMPTS).setInitialBackoff(Duration.ofMillis(200))
                .setMaxBackoff(Duration.ofSeconds(1)).setBackoffMultiplier(2).build();
    }

    static OtlpHttpSpanExporter spanExporter(OtlpTarget t) {
        OtlpHttpSpanExporterBuilder b = OtlpHttpSpanExporter.builder().setEndpoint(t.signal("traces"))
                .setTimeout(Duration.ofMillis(t.timeoutMs())).setConnectTimeout(Duration.ofMillis(t.timeoutMs()))
                .setRetryPolicy(retry()).setMeterProvider(MeterProvider::noop).setCompression(t.compression());
        t.headers().forEach(b::addHeader);
        return b.build();
    }

    static OtlpHttpLogRecordExporter logExporter(OtlpTarget t) {
        OtlpHttpLogRecordExporterBuilder b = OtlpHttpLogRecordExporter.builder().setEndpoint(t.signal("logs"))
                .setTimeout(Duration.ofMillis(t.timeoutMs())).setConnectTimeout(Duration.ofMillis(t.timeoutMs()))
                .setRetryPolicy(retry()).setMeterProvider(MeterProvider::noop).setCompression(t.compression());
        t.headers().forEach(b::addHeader);
        return b.build();
    }

    static OtlpHttpMetricExporter metricExporter(OtlpTarget t) {
        OtlpHttpMetricExporterBuilder b = OtlpHttpMetricExporter.builder().setEndpoint(t.signal("metrics"))
                .setTimeout(Duration.ofMillis(t.timeoutMs())).setConnectTimeout(Duration.ofMillis(t.timeoutMs()))
                .setRetryPolicy(retry()).setMeterProvider(MeterProvider::noop).setCompression(t.compression());
        t.headers().forEach(b::addHeader);
        return b.build();
    }
}
