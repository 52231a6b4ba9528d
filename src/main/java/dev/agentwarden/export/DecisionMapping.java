package dev.agentwarden.export;

import dev.agentwarden.decision.DecisionLine;
import dev.agentwarden.json.Json;
import dev.agentwarden.ledger.UtcTime;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.logs.Logger;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.time.Clock;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The one mapping of a decision line to OpenTelemetry, shared by the history export
 * ({@link OtlpExport}) and the live one ({@link LiveExport}): an {@code execute_tool} span (a hook
 * without a tool: {@code warden.hook {event}}) with one {@code apply_guardrail} child per concern that
 * ran, the line as a log record, and the decision counters and hook-latency histogram.
 */
final class DecisionMapping {
    static final String SCOPE = "dev.agentwarden.export";

    private final Tracer tracer;
    private final Logger logger;
    private final Clock clock;
    /** The span of a subagent run by its ledger ref, or {@code null} when none is known. */
    private final Function<String, SpanContext> runs;
    private final LongCounter decisionCounter;
    private final LongCounter guardrailCounter;
    private final DoubleHistogram hookLatency;

    DecisionMapping(Tracer tracer, Logger logger, Meter meter, Clock clock, Function<String, SpanContext> runs) {
        this.tracer = tracer;
        this.logger = logger;
        this.clock = clock;
        this.runs = runs;
        decisionCounter = meter.counterBuilder("warden.decisions").setUnit("{decision}")
                .setDescription("Decisions by verdict, host and event").build();
        guardrailCounter = meter.counterBuilder("warden.guardrail.evaluations").setUnit("{evaluation}")
                .setDescription("Concern evaluations by concern, result and host").build();
        hookLatency = meter.histogramBuilder("warden.hook.duration").setUnit("s")
                .setDescription("Time Warden took to answer a hook (elapsed_us of the decision line)")
                .setExplicitBucketBoundariesAdvice(List.of(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2,
                        0.5, 1.0, 2.0, 5.0))
                .build();
    }

    /** Maps one decision line, recorded at {@code ts} (epoch ms, its {@code ts} field). */
    void decision(Map<String, Object> d, long ts) {
        long startNs = TimeUnit.MILLISECONDS.toNanos(ts);
        long elapsedUs = d.get("elapsed_us") instanceof Number n ? Math.max(0, n.longValue()) : 0;
        String tool = str(d.get("tool"));
        String event = str(d.get("event")) != null ? str(d.get("event")) : str(d.get("native_event"));
        SpanBuilder b = tracer.spanBuilder(tool != null ? GenAi.EXECUTE_TOOL + " " + tool
                        : "warden.hook " + (event == null ? "unknown" : event))
                .setSpanKind(SpanKind.INTERNAL)
                .setStartTimestamp(startNs, TimeUnit.NANOSECONDS);
        Context parent = parentOf(d);
        if (parent == null) {
            b.setNoParent();
        } else {
            b.setParent(parent);
        }
        Span span = b.startSpan();
        if (tool != null) {
            span.setAttribute(GenAi.OPERATION, GenAi.EXECUTE_TOOL);
            span.setAttribute(GenAi.TOOL_NAME, tool);
        }
        set(span, GenAi.CONVERSATION_ID, d.get("session_id"));
        set(span, GenAi.AGENT_ID, d.get("ref"));
        set(span, "warden.host", d.get("host"));
        set(span, "warden.event", d.get("event"));
        set(span, "warden.native_event", d.get("native_event"));
        set(span, "warden.verdict", d.get("verdict"));
        set(span, "warden.emitted", d.get("emitted"));
        set(span, "warden.transport", d.get("transport"));
        set(span, "warden.role", d.get("role"));
        set(span, "warden.tool_input.sha256", d.get("tool_input_sha256"));
        set(span, "warden.fail_mode", d.get("fail_mode"));
        set(span, "warden.problem", d.get("problem"));
        set(span, "warden.manifest_fallback", d.get("manifest_fallback"));
        set(span, "warden.elapsed_us", d.get("elapsed_us"));
        Map<?, ?> manifest = d.get("manifest") instanceof Map<?, ?> m ? m : Map.of();
        set(span, "warden.manifest.source", manifest.get("source"));
        set(span, "warden.manifest.sha256", manifest.get("sha256"));
        Map<?, ?> managed = d.get("managed") instanceof Map<?, ?> m ? m : Map.of();
        set(span, "warden.managed.source", managed.get("source"));
        set(span, "warden.managed.sha256", managed.get("sha256"));
        set(span, "warden.rewritten", d.get("rewritten"));
        set(span, "warden.rewritten_by", d.get("rewritten_by"));
        Context here = Context.root().with(span);
        guardrails(d, manifest, here, span, startNs);
        span.end(startNs + elapsedUs * 1000, TimeUnit.NANOSECONDS);

        Attributes counted = Attributes.of(AttributeKey.stringKey("warden.verdict"), orNone(d.get("verdict")),
                AttributeKey.stringKey("warden.host"), orNone(d.get("host")),
                AttributeKey.stringKey("warden.event"), orNone(event));
        decisionCounter.add(1, counted);
        hookLatency.record(elapsedUs / 1e6, Attributes.of(AttributeKey.stringKey("warden.host"), orNone(d.get("host")),
                AttributeKey.stringKey("warden.event"), orNone(event)));

        String verdict = str(d.get("verdict"));
        logger.logRecordBuilder()
                .setTimestamp(startNs, TimeUnit.NANOSECONDS)
                .setObservedTimestamp(clock.millis(), TimeUnit.MILLISECONDS)
                .setContext(here)
                .setSeverity(severity(verdict))
                .setSeverityText(verdict == null ? "none" : verdict)
                .setEventName("warden.decision")
                .setBody(Json.write(d))
                .setAllAttributes(counted)
                .emit();
    }

    /** The host's span when the line carries a traceparent, else the run the decision belongs to, else none. */
    private Context parentOf(Map<String, Object> d) {
        String tp = DecisionLine.traceparent(str(d.get("traceparent")));
        if (tp != null) {
            SpanContext remote = SpanContext.createFromRemoteParent(tp.substring(3, 35), tp.substring(36, 52),
                    TraceFlags.fromHex(tp, 53), TraceState.getDefault());
            return Context.root().with(Span.wrap(remote));
        }
        SpanContext run = str(d.get("ref")) == null ? null : runs.apply(str(d.get("ref")));
        return run == null ? null : Context.root().with(Span.wrap(run));
    }

    /** One apply_guardrail span per concern that ran, back to back from the decision's start. */
    private void guardrails(Map<String, Object> d, Map<?, ?> manifest, Context parent, Span decision, long startNs) {
        if (!(d.get("concerns") instanceof List<?> concerns)) {
            return;
        }
        long at = startNs;
        for (Object o : concerns) {
            if (!(o instanceof Map<?, ?> c) || str(c.get("name")) == null || "skipped".equals(c.get("outcome"))) {
                continue;
            }
            String name = str(c.get("name"));
            long us = c.get("elapsed_us") instanceof Number n ? Math.max(0, n.longValue()) : 0;
            Span g = tracer.spanBuilder(GenAi.APPLY_GUARDRAIL + " " + name)
                    .setParent(parent)
                    .setSpanKind(SpanKind.INTERNAL)
                    .setStartTimestamp(at, TimeUnit.NANOSECONDS)
                    .startSpan();
            g.setAttribute(GenAi.OPERATION, GenAi.APPLY_GUARDRAIL);
            g.setAttribute(GenAi.GUARDRAIL_NAME, name);
            // a concern of the administrator's layer (a line's optional "layer": "managed") is that manifest's policy
            Map<?, ?> policy = "managed".equals(c.get("layer")) && d.get("managed") instanceof Map<?, ?> m ? m : manifest;
            set(g, GenAi.POLICY_ID, policy.get("source"));
            set(g, GenAi.POLICY_VERSION, policy.get("sha256"));
            set(g, "warden.concern.layer", c.get("layer"));
            set(g, GenAi.RESULT_TYPE, c.get("outcome"));
            set(g, GenAi.RESULT_VALUE, c.get("effective"));
            set(g, GenAi.RESULT_REASON, c.get("reason"));
            set(g, "warden.concern.posture", c.get("posture"));
            set(g, "warden.concern.would_block", c.get("would_block"));
            set(g, "warden.concern.reason_sha256", c.get("reason_sha256"));
            set(g, "warden.concern.note", c.get("note"));
            set(g, "warden.concern.exit_code", c.get("exit_code"));
            g.end(at + us * 1000, TimeUnit.NANOSECONDS);
            at += us * 1000;
            if (name.startsWith("integrity")) {
                verdictOf(decision, "warden.integrity", c);
            } else if (name.startsWith("inventory")) {
                verdictOf(decision, "warden.inventory", c);
            }
            guardrailCounter.add(1, Attributes.of(AttributeKey.stringKey(GenAi.GUARDRAIL_NAME), name,
                    AttributeKey.stringKey(GenAi.RESULT_TYPE), orNone(c.get("outcome")),
                    AttributeKey.stringKey("warden.host"), orNone(d.get("host"))));
        }
    }

    /** The integrity or inventory concern's result on its decision's span. */
    private static void verdictOf(Span decision, String prefix, Map<?, ?> c) {
        set(decision, prefix + ".concern", c.get("name"));
        set(decision, prefix + ".outcome", c.get("outcome"));
        set(decision, prefix + ".effective", c.get("effective"));
        set(decision, prefix + ".reason", c.get("reason"));
    }

    private static Severity severity(String verdict) {
        if (verdict == null || verdict.equals("allow")) {
            return Severity.INFO;
        }
        return verdict.equals("halt") || verdict.equals("error") ? Severity.ERROR : Severity.WARN;
    }

    // ---- helpers -------------------------------------------------------------------------------

    static void set(Span span, String key, Object value) {
        if (value instanceof String s) {
            span.setAttribute(key, s);
        } else if (value instanceof Boolean b) {
            span.setAttribute(key, b);
        } else if (value instanceof Number n && !(value instanceof Double)) {
            span.setAttribute(key, n.longValue());
        } else if (value instanceof Double x) {
            span.setAttribute(key, x);
        }
    }

    static String str(Object o) {
        return o instanceof String s ? s : null;
    }

    static String orNone(Object o) {
        return o instanceof String s ? s : "none";
    }

    /** Epoch ms of a line's {@code ts}, or {@code null} when it is missing or not a time. */
    static Long millis(String ts) {
        if (ts == null) {
            return null;
        }
        try {
            return UtcTime.parse(ts).toEpochMilli();
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
