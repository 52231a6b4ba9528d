package dev.agentwarden.export;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.CollectionRegistration;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.metrics.export.MetricReader;
import java.util.Collection;

/** Collects the metrics once, when the export has read everything, and sends them in one request. */
final class MetricsOnce implements MetricReader {
    private final MetricExporter exporter;
    private CollectionRegistration registration = CollectionRegistration.noop();

    MetricsOnce(MetricExporter exporter) {
        this.exporter = exporter;
    }

    @Override
    public void register(CollectionRegistration registration) {
        this.registration = registration;
    }

    @Override
    public AggregationTemporality getAggregationTemporality(InstrumentType instrumentType) {
        return exporter.getAggregationTemporality(instrumentType);
    }

    /** Sends what was recorded; the failure text, or {@code null}. */
    String send(String url, long timeoutMs) {
        Collection<MetricData> metrics = registration.collectAllMetrics();
        if (metrics.isEmpty()) {
            return null;
        }
        return Batches.await("metrics", url, exporter.export(metrics), timeoutMs);
    }

    /** Nothing to flush: {@link #send} is the only collection. */
    @Override
    public CompletableResultCode forceFlush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        return exporter.shutdown();
    }
}
