package dev.agentwarden.export;

import dev.agentwarden.decision.DecisionTap;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The live export of a long-lived server (the resident, {@code warden serve}): each decision line
 * it writes is offered to a bounded in-memory queue ({@value #CAPACITY} lines) and a background
 * thread sends them in batches of up to {@value #BATCH}, mapped as {@code warden export} maps them
 * ({@link DecisionMapping}), with the metrics every {@value #METRICS_EVERY_MS} ms.
 *
 * <p>A hook never waits for it: {@link #recorded} is one {@code offer}, and a line that finds the
 * queue full is dropped and counted. A batch the collector refuses or does not answer in time is
 * dropped too (counted as failed, its reason kept as the last error) and the next one is tried.
 * Counts and the last error are in the server's status answer, which {@code warden doctor} shows.
 *
 * <p>This class loads no OpenTelemetry class; its thread does ({@link LiveSender}), so a server that
 * exports nothing never loads the SDK.
 */
public final class LiveExport implements DecisionTap, AutoCloseable {
    /** The switch: {@code on} (or {@code 1}, {@code true}, or the collector's base URL) in the server's environment turns live export on. */
    public static final String SWITCH = "WARDEN_OTLP_LIVE";
    static final int CAPACITY = 10_000;
    static final int BATCH = 512;
    /** How long the first line of a batch waits for others. */
    static final long LINGER_MS = 200;
    static final long METRICS_EVERY_MS = 10_000;
    /** The deadline of each request (connect included); tried at most 3 times. */
    static final long TIMEOUT_MS = 5_000;

    private final OtlpTarget target;
    /** How long one request may take, its retries included. */
    private final long awaitMs;
    private final Clock clock;
    private final ArrayBlockingQueue<String> queue;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final Thread thread;
    private volatile String lastError;
    private volatile long lastErrorAt;
    private volatile boolean stopping;

    LiveExport(OtlpTarget target, Clock clock, int capacity) {
        this.target = target;
        this.awaitMs = 3 * target.timeoutMs() + 2_000;
        this.clock = clock;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.thread = new Thread(this::run, "warden-otlp-live");
        thread.setDaemon(true);
    }

    /**
     * Whether {@code env} turns live export on: {@link #SWITCH} is {@code on} (or {@code 1},
     * {@code true}) or a collector's http(s) base URL, and the SDK is not disabled
     * ({@code OTEL_SDK_DISABLED=true}, or {@code WARDEN_OTEL_SDK_DISABLED=true}).
     */
    public static boolean wanted(Map<String, String> env) {
        String on = env.get(SWITCH);
        if (on == null) {
            return false;
        }
        on = on.trim();
        return (on.equals("on") || on.equals("1") || on.equals("true") || url(on) != null)
                && !"true".equalsIgnoreCase(String.valueOf(otel(env).get("OTEL_SDK_DISABLED")).trim());
    }

    /**
     * Starts exporting to the collector {@link #SWITCH} names, else {@code OTEL_EXPORTER_OTLP_ENDPOINT},
     * with the {@code OTEL_EXPORTER_OTLP_HEADERS}, {@code OTEL_RESOURCE_ATTRIBUTES} and the other
     * variables {@link OtlpTarget} reads; each may also be given as {@code WARDEN_OTEL_...}, which
     * wins: hosts that keep their own {@code OTEL_*} variables from their hooks (Claude Code) pass those.
     *
     * @throws IllegalArgumentException when those variables do not name a collector, or are malformed
     */
    public static LiveExport start(Map<String, String> env, Clock clock) {
        String url = url(String.valueOf(env.get(SWITCH)).trim());
        Map<String, String> otel = otel(env);
        String endpoint = otel.get("OTEL_EXPORTER_OTLP_ENDPOINT");
        if (url == null && (endpoint == null || endpoint.isBlank())) {
            throw new IllegalArgumentException("no collector: set " + SWITCH + " to its base URL (like "
                    + "http://127.0.0.1:4318) or OTEL_EXPORTER_OTLP_ENDPOINT (WARDEN_OTEL_EXPORTER_OTLP_ENDPOINT)");
        }
        LiveExport live = new LiveExport(OtlpTarget.of(url, otel, TIMEOUT_MS), clock, CAPACITY);
        live.thread.start();
        return live;
    }

    /** {@code value} when it is an http(s) URL, else {@code null}. */
    private static String url(String value) {
        return value.startsWith("http://") || value.startsWith("https://") ? value : null;
    }

    /** {@code env} with each {@code WARDEN_OTEL_X} also as {@code OTEL_X}, over the one of that name. */
    static Map<String, String> otel(Map<String, String> env) {
        Map<String, String> out = new java.util.HashMap<>(env);
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (e.getKey().startsWith("WARDEN_OTEL_")) {
                out.put(e.getKey().substring("WARDEN_".length()), e.getValue());
            }
        }
        return out;
    }

    /** Queues {@code line} for the collector, or drops and counts it when the queue is full; never waits. */
    @Override
    public void recorded(String root, String line) {
        if (stopping || !queue.offer(line)) {
            dropped.incrementAndGet();
        }
    }

    /**
     * {@code endpoint} (the collector's base URL), {@code queued}, {@code capacity}, {@code sent}
     * (decision lines the collector took), {@code dropped} (found the queue full), {@code failed} (in a
     * batch the collector did not take), and when one failed {@code last_error} and {@code last_error_at}
     * (epoch ms).
     */
    public Map<String, Object> status() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("endpoint", target.base());
        s.put("queued", (long) queue.size());
        s.put("capacity", (long) (queue.size() + queue.remainingCapacity()));
        s.put("sent", sent.get());
        s.put("dropped", dropped.get());
        s.put("failed", failed.get());
        if (lastError != null) {
            s.put("last_error", lastError);
            s.put("last_error_at", lastErrorAt);
        }
        return s;
    }

    /** Starts the thread of a live export made for a test. */
    LiveExport started() {
        thread.start();
        return this;
    }

    /** Sends what is queued (each request to its deadline), then stops. */
    @Override
    public void close() {
        stopping = true;
        try {
            thread.join(4 * awaitMs + 2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        LiveSender sender;
        try {
            sender = new LiveSender(target, clock, awaitMs);
        } catch (RuntimeException | LinkageError e) {
            failure("the OpenTelemetry SDK did not start: " + e);
            drainAndDrop();
            return;
        }
        List<String> batch = new ArrayList<>(BATCH);
        long nextMetrics = clock.millis() + METRICS_EVERY_MS;
        try {
            while (!stopping || !queue.isEmpty()) {
                fill(batch);
                if (!batch.isEmpty()) {
                    send(sender, batch);
                    batch.clear();
                }
                if (clock.millis() >= nextMetrics) {
                    metrics(sender);
                    nextMetrics = clock.millis() + METRICS_EVERY_MS;
                }
            }
            metrics(sender);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            sender.shutdown();
        }
    }

    /** Waits up to a second for a first line, then up to {@link #LINGER_MS} more for others, to {@link #BATCH}. */
    private void fill(List<String> batch) throws InterruptedException {
        String first = queue.poll(stopping ? 0 : 1_000, TimeUnit.MILLISECONDS);
        if (first == null) {
            return;
        }
        batch.add(first);
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LINGER_MS);
        while (batch.size() < BATCH) {
            queue.drainTo(batch, BATCH - batch.size());
            long left = until - System.nanoTime();
            if (batch.size() >= BATCH || left <= 0 || stopping) {
                return;
            }
            String next = queue.poll(left, TimeUnit.NANOSECONDS);
            if (next != null) {
                batch.add(next);
            }
        }
    }

    private void send(LiveSender sender, List<String> batch) {
        try {
            int mapped = 0;
            for (String line : batch) {
                if (sender.map(line)) {
                    mapped++;
                }
            }
            String failure = sender.flush();
            if (failure == null) {
                sent.addAndGet(mapped);
            } else {
                failed.addAndGet(mapped);
                failure(failure);
            }
        } catch (RuntimeException e) {
            failed.addAndGet(batch.size());
            failure("could not export a batch: " + e);
        }
    }

    private void metrics(LiveSender sender) {
        try {
            String failure = sender.sendMetrics();
            if (failure != null) {
                failure(failure);
            }
        } catch (RuntimeException e) {
            failure("could not export metrics: " + e);
        }
    }

    private void drainAndDrop() {
        while (!stopping || !queue.isEmpty()) {
            try {
                if (queue.poll(1, TimeUnit.SECONDS) != null) {
                    failed.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void failure(String why) {
        lastErrorAt = clock.millis();
        lastError = why;
    }
}
