package dev.agentwarden.export;

import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import io.opentelemetry.context.Context;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.logs.LogRecordProcessor;
import io.opentelemetry.sdk.logs.ReadWriteLogRecord;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The OpenTelemetry side of a {@link LiveExport}, used by its thread alone: maps decision lines
 * with the {@link DecisionMapping} into spans and log records held here until {@link #flush} sends
 * them, one request per signal.
 */
final class LiveSender {
    /** Held so the level set below stays: the exporters log failures with stack traces; the status keeps them instead. */
    private static final Logger SDK_LOG = Logger.getLogger("io.opentelemetry");

    private final OtlpTarget target;
    private final long awaitMs;
    private final OtlpHttpSpanExporter spanExporter;
    private final OtlpHttpLogRecordExporter logExporter;
    private final MetricsOnce metrics;
    private final SdkTracerProvider tracerProvider;
    private final SdkLoggerProvider loggerProvider;
    private final SdkMeterProvider meterProvider;
    private final DecisionMapping mapping;
    private final List<SpanData> spans = new ArrayList<>();
    private final List<LogRecordData> logs = new ArrayList<>();

    LiveSender(OtlpTarget target, Clock clock, long awaitMs) {
        SDK_LOG.setLevel(Level.OFF);
        this.target = target;
        this.awaitMs = awaitMs;
        Resource resource = Resource.getDefault().merge(Resource.create(OtlpExport.attributes(target.resource())));
        spanExporter = OtlpExport.spanExporter(target);
        logExporter = OtlpExport.logExporter(target);
        metrics = new MetricsOnce(OtlpExport.metricExporter(target));
        tracerProvider = SdkTracerProvider.builder().setResource(resource).addSpanProcessor(new Spans()).build();
        loggerProvider = SdkLoggerProvider.builder().setResource(resource).addLogRecordProcessor(new Logs()).build();
        meterProvider = SdkMeterProvider.builder().setResource(resource).registerMetricReader(metrics).build();
        // live lines join no subagent run: the ledger is not read here (a traceparent still joins the host)
        mapping = new DecisionMapping(tracerProvider.get(DecisionMapping.SCOPE), loggerProvider.get(DecisionMapping.SCOPE),
                meterProvider.get(DecisionMapping.SCOPE), clock, ref -> null);
    }

    /** Maps one decision line; {@code false} when it is not a decision line with a time. */
    boolean map(String line) {
        Map<String, Object> d;
        try {
            d = Json.parseObject(line);
        } catch (JsonException | IllegalArgumentException e) {
            return false;
        }
        Long ts = DecisionMapping.millis(DecisionMapping.str(d.get("ts")));
        if (ts == null) {
            return false;
        }
        mapping.decision(d, ts);
        return true;
    }

    /** Sends the spans, then the log records, mapped since the last call; the first failure, or {@code null}. */
    String flush() {
        String failure = null;
        if (!spans.isEmpty()) {
            List<SpanData> out = new ArrayList<>(spans);
            spans.clear();
            failure = Batches.await("spans", target.signal("traces"), spanExporter.export(out), awaitMs);
        }
        if (!logs.isEmpty()) {
            List<LogRecordData> out = new ArrayList<>(logs);
            logs.clear();
            if (failure == null) {
                // a collector that did not take the spans is not asked again for the same batch's records
                failure = Batches.await("log records", target.signal("logs"), logExporter.export(out), awaitMs);
            }
        }
        return failure;
    }

    /** Sends the metrics (cumulative); the failure, or {@code null}. */
    String sendMetrics() {
        return metrics.send(target.signal("metrics"), awaitMs);
    }

    void shutdown() {
        tracerProvider.shutdown().join(awaitMs, TimeUnit.MILLISECONDS);
        loggerProvider.shutdown().join(awaitMs, TimeUnit.MILLISECONDS);
        meterProvider.shutdown().join(awaitMs, TimeUnit.MILLISECONDS);
    }

    /** Keeps each ended span for the next {@link #flush}. */
    private final class Spans implements SpanProcessor {
        @Override
        public void onStart(Context parentContext, ReadWriteSpan span) {
        }

        @Override
        public boolean isStartRequired() {
            return false;
        }

        @Override
        public void onEnd(ReadableSpan span) {
            spans.add(span.toSpanData());
        }

        @Override
        public boolean isEndRequired() {
            return true;
        }

        @Override
        public CompletableResultCode shutdown() {
            return spanExporter.shutdown();
        }
    }

    /** Keeps each emitted log record for the next {@link #flush}. */
    private final class Logs implements LogRecordProcessor {
        @Override
        public void onEmit(Context context, ReadWriteLogRecord logRecord) {
            logs.add(logRecord.toLogRecordData());
        }

        @Override
        public CompletableResultCode shutdown() {
            return logExporter.shutdown();
        }
    }
}
