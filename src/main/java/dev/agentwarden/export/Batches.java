package dev.agentwarden.export;

import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.logs.LogRecordProcessor;
import io.opentelemetry.sdk.logs.ReadWriteLogRecord;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.logs.export.LogRecordExporter;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Sends ended spans and emitted log records in batches of {@link #BATCH}, each request awaited to
 * its deadline before the next: a history export drops nothing (the SDK's batch processors drop
 * when their queue is full) and stops at the first request the collector did not take.
 */
final class Batches {
    /** Items per request. */
    static final int BATCH = 512;

    private Batches() {
    }

    /** Why a request failed, for the command's one-line error. */
    static String why(String signal, String url, CompletableResultCode r) {
        Throwable t = r.getFailureThrowable();
        String cause = t == null ? "the collector did not accept them"
                : t.getMessage() == null || t.getMessage().isBlank() ? t.getClass().getSimpleName() : t.getMessage();
        return "could not send " + signal + " to " + url + ": " + cause;
    }

    /** Awaits {@code r} to {@code timeoutMs}; the failure text, or {@code null} on success. */
    static String await(String signal, String url, CompletableResultCode r, long timeoutMs) {
        r.join(timeoutMs, TimeUnit.MILLISECONDS);
        if (!r.isDone()) {
            return "could not send " + signal + " to " + url + ": no answer within " + timeoutMs + " ms";
        }
        return r.isSuccess() ? null : why(signal, url, r);
    }

    /** Spans, {@link #BATCH} to a request. */
    static final class Spans implements SpanProcessor {
        private final SpanExporter exporter;
        private final String url;
        private final long timeoutMs;
        private List<SpanData> batch = new ArrayList<>(BATCH);
        private String failure;
        private long sent;

        Spans(SpanExporter exporter, String url, long timeoutMs) {
            this.exporter = exporter;
            this.url = url;
            this.timeoutMs = timeoutMs;
        }

        @Override
        public void onStart(Context parentContext, ReadWriteSpan span) {
        }

        @Override
        public boolean isStartRequired() {
            return false;
        }

        @Override
        public void onEnd(ReadableSpan span) {
            if (failure != null) {
                return;
            }
            batch.add(span.toSpanData());
            if (batch.size() >= BATCH) {
                send();
            }
        }

        @Override
        public boolean isEndRequired() {
            return true;
        }

        @Override
        public CompletableResultCode forceFlush() {
            send();
            return failure == null ? CompletableResultCode.ofSuccess() : CompletableResultCode.ofFailure();
        }

        @Override
        public CompletableResultCode shutdown() {
            return exporter.shutdown();
        }

        /** The first failed request, or {@code null}. */
        String failure() {
            return failure;
        }

        long sent() {
            return sent;
        }

        private void send() {
            if (failure != null || batch.isEmpty()) {
                return;
            }
            Collection<SpanData> out = batch;
            batch = new ArrayList<>(BATCH);
            failure = await("spans", url, exporter.export(out), timeoutMs);
            if (failure == null) {
                sent += out.size();
            }
        }
    }

    /** Log records, {@link #BATCH} to a request. */
    static final class Logs implements LogRecordProcessor {
        private final LogRecordExporter exporter;
        private final String url;
        private final long timeoutMs;
        private List<LogRecordData> batch = new ArrayList<>(BATCH);
        private String failure;
        private long sent;

        Logs(LogRecordExporter exporter, String url, long timeoutMs) {
            this.exporter = exporter;
            this.url = url;
            this.timeoutMs = timeoutMs;
        }

        @Override
        public void onEmit(Context context, ReadWriteLogRecord logRecord) {
            if (failure != null) {
                return;
            }
            batch.add(logRecord.toLogRecordData());
            if (batch.size() >= BATCH) {
                send();
            }
        }

        @Override
        public CompletableResultCode forceFlush() {
            send();
            return failure == null ? CompletableResultCode.ofSuccess() : CompletableResultCode.ofFailure();
        }

        @Override
        public CompletableResultCode shutdown() {
            return exporter.shutdown();
        }

        String failure() {
            return failure;
        }

        long sent() {
            return sent;
        }

        private void send() {
            if (failure != null || batch.isEmpty()) {
                return;
            }
            Collection<LogRecordData> out = batch;
            batch = new ArrayList<>(BATCH);
            failure = await("log records", url, exporter.export(out), timeoutMs);
            if (failure == null) {
                sent += out.size();
            }
        }
    }
}
