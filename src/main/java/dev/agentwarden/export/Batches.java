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
import java.util.function.Function;

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

    /**
     * Items of one signal waiting to be sent, {@link #BATCH} to a request; after the first failed
     * request nothing more is taken or sent.
     */
    static final class Outbox<T> {
        private final String signal;
        private final String url;
        private final long timeoutMs;
        private final Function<Collection<T>, CompletableResultCode> export;
        private List<T> batch = new ArrayList<>(BATCH);
        private String failure;
        private long sent;

        Outbox(String signal, String url, long timeoutMs, Function<Collection<T>, CompletableResultCode> export) {
            this.signal = signal;
            this.url = url;
            this.timeoutMs = timeoutMs;
            this.export = export;
        }

        void add(T item) {
            if (failure != null) {
                return;
            }
            batch.add(item);
            if (batch.size() >= BATCH) {
                send();
            }
        }

        CompletableResultCode flush() {
            send();
            return failure == null ? CompletableResultCode.ofSuccess() : CompletableResultCode.ofFailure();
        }

        boolean failed() {
            return failure != null;
        }

        private void send() {
            if (failure != null || batch.isEmpty()) {
                return;
            }
            Collection<T> out = batch;
            batch = new ArrayList<>(BATCH);
            failure = await(signal, url, export.apply(out), timeoutMs);
            if (failure == null) {
                sent += out.size();
            }
        }
    }

    /** Spans, {@link #BATCH} to a request. */
    static final class Spans implements SpanProcessor {
        private final SpanExporter exporter;
        private final Outbox<SpanData> outbox;

        Spans(SpanExporter exporter, String url, long timeoutMs) {
            this.exporter = exporter;
            this.outbox = new Outbox<>("spans", url, timeoutMs, exporter::export);
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
            if (!outbox.failed()) {
                outbox.add(span.toSpanData());
            }
        }

        @Override
        public boolean isEndRequired() {
            return true;
        }

        @Override
        public CompletableResultCode forceFlush() {
            return outbox.flush();
        }

        @Override
        public CompletableResultCode shutdown() {
            return exporter.shutdown();
        }

        /** The first failed request, or {@code null}. */
        String failure() {
            return outbox.failure;
        }

        long sent() {
            return outbox.sent;
        }
    }

    /** Log records, {@link #BATCH} to a request. */
    static final class Logs implements LogRecordProcessor {
        private final LogRecordExporter exporter;
        private final Outbox<LogRecordData> outbox;

        Logs(LogRecordExporter exporter, String url, long timeoutMs) {
            this.exporter = exporter;
            this.outbox = new Outbox<>("log records", url, timeoutMs, exporter::export);
        }

        @Override
        public void onEmit(Context context, ReadWriteLogRecord logRecord) {
            if (!outbox.failed()) {
                outbox.add(logRecord.toLogRecordData());
            }
        }

        @Override
        public CompletableResultCode forceFlush() {
            return outbox.flush();
        }

        @Override
        public CompletableResultCode shutdown() {
            return exporter.shutdown();
        }

        /** The first failed request, or {@code null}. */
        String failure() {
            return outbox.failure;
        }

        long sent() {
            return outbox.sent;
        }
    }
}
