package dev.agentwarden.export;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.dispatch.DispatchRuntime;
import dev.agentwarden.testing.MutableClock;
import dev.agentwarden.json.Json;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.trace.v1.Span;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live export of a long-lived server: decision lines written through tapped
 * {@link OpenSegments} (as the resident writes them) reach an OTLP/HTTP receiver mapped exactly as
 * {@code warden export} maps the same lines; a full queue drops and counts instead of waiting; a
 * collector that refuses is reported in the status.
 */
class LiveExportTest {
    private static final String HOST_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String HOST_SPAN = "00f067aa0ba902b7";

    @TempDir
    Path tmp;

    @Test
    void eachDecisionTheServerWrites_reachesTheCollector_asTheHistoryExportSendsIt() throws Exception {
        ExportProject p = new ExportProject(tmp, ExportProject.MANIFEST);
        MutableClock clock = MutableClock.at("2026-11-05T08:30:00.250Z");
        try (OtlpReceiver live = new OtlpReceiver(); OtlpReceiver history = new OtlpReceiver();
             DispatchRuntime runtime = DispatchRuntime.longLived(clock)) {
            LiveExport export = LiveExport.start(Map.of(LiveExport.SWITCH, "on", "OTEL_EXPORTER_OTLP_ENDPOINT", live.base(),
                    "OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=test"), Clock.systemUTC());
            runtime.segments().tap(export);
            p.dispatch("2026-11-05T08:30:00.250Z", Map.of(), "PreToolUse", ExportProject.bash("s1", null, "sudo rm -rf /"),
                    runtime, clock);
            p.dispatch("2026-11-05T08:30:05.000Z", Map.of("TRACEPARENT", "00-" + HOST_TRACE + "-" + HOST_SPAN + "-01"),
                    "PreToolUse", ExportProject.bash("s1", null, "ls -la"), runtime, clock);
            p.dispatch("2026-11-05T08:30:06.000Z", Map.of(), "UserPromptSubmit", ExportProject.prompt("s1", "hello"),
                    runtime, clock);

            // sent by the background thread within its batch wait, without a close or a flush
            List<Span> spans = poll(() -> live.spans(), s -> s.stream().filter(x -> !x.getName().startsWith("apply_guardrail"))
                    .count() == 3);
            List<LogRecord> logs = poll(live::logRecords, l -> l.size() == 3);
            // the exporter counts a batch as sent when the send returns, after the collector has it
            Map<String, Object> status = poll(export::status, m -> Long.valueOf(3L).equals(m.get("sent")));
            assertThat(status).containsEntry("dropped", 0L).containsEntry("failed", 0L).doesNotContainKey("last_error");

            Span joined = spans.stream().filter(s -> hex(s.getParentSpanId().toByteArray()).equals(HOST_SPAN)).findFirst()
                    .orElseThrow();
            assertThat(joined.getName()).isEqualTo("execute_tool Bash");
            assertThat(hex(joined.getTraceId().toByteArray())).isEqualTo(HOST_TRACE);
            Span blocked = spans.stream().filter(s -> s.getName().equals("execute_tool Bash") && s != joined).findFirst()
                    .orElseThrow();
            assertThat(spans).filteredOn(s -> s.getName().equals("apply_guardrail no-rm-root"))
                    .anySatisfy(g -> assertThat(g.getParentSpanId()).isEqualTo(blocked.getSpanId()));
            List<String> lines = p.decisionLines();
            assertThat(logs).extracting(l -> Json.parseObject(l.getBody().getStringValue()))
                    .containsExactlyInAnyOrderElementsOf(lines.stream().map(Json::parseObject).toList());
            assertThat(live.spanResources()).allSatisfy(r -> assertThat(r.getAttributesList()).anySatisfy(kv -> {
                assertThat(kv.getKey()).isEqualTo("deployment.environment");
                assertThat(kv.getValue().getStringValue()).isEqualTo("test");
            }));

            export.close();
            assertThat(live.metrics()).extracting(m -> m.getName()).contains("warden.decisions", "warden.hook.duration");

            // one mapping: the history export of the same lines sends the same spans
            OtlpExport.run(tmp.toString(), OtlpTarget.of(history.base(), Map.of(), 10_000), Long.MIN_VALUE,
                    Clock.systemUTC());
            assertThat(shape(live.spans())).isEqualTo(shape(history.spans()));
        }
    }

    @Test
    void aFullQueue_dropsAndCounts_insteadOfWaiting_andAStalledCollectorIsReported() throws Exception {
        ExportProject p = new ExportProject(tmp, ExportProject.MANIFEST);
        p.dispatch("2026-11-05T08:30:00.250Z", Map.of(), "PreToolUse", ExportProject.bash("s1", null, "ls"));
        String line = p.decisionLines().get(0);
        // a collector that takes the connection and never answers
        try (ServerSocket stalled = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            OtlpTarget target = OtlpTarget.of("http://127.0.0.1:" + stalled.getLocalPort(), Map.of(), 200);
            LiveExport export = new LiveExport(target, Clock.systemUTC(), 4).started();
            for (int i = 0; i < 1_000; i++) {
                export.recorded(tmp.toString(), line);
            }
            Map<String, Object> status = export.status();
            long dropped = (Long) status.get("dropped");
            // at most the queue and one batch in the sender's hands were taken
            assertThat(dropped).isBetween(1_000L - 4 - LiveExport.BATCH, 1_000L - 4);
            assertThat((Long) status.get("queued")).isLessThanOrEqualTo(4L);
            Map<String, Object> failedStatus = poll(export::status, s -> s.containsKey("last_error"));
            assertThat((String) failedStatus.get("last_error")).contains("could not send spans to http://127.0.0.1:"
                    + stalled.getLocalPort() + "/v1/traces");
            export.close();
            assertThat((Long) export.status().get("sent")).isZero();
            assertThat((Long) export.status().get("failed") + (Long) export.status().get("dropped")).isEqualTo(1_000L);
        }
    }

    @Test
    void aCollectorThatRefuses_isTheLastError_andTheNextBatchIsStillTried() throws Exception {
        ExportProject p = new ExportProject(tmp, ExportProject.MANIFEST);
        p.dispatch("2026-11-05T08:30:00.250Z", Map.of(), "PreToolUse", ExportProject.bash("s1", null, "ls"));
        String line = p.decisionLines().get(0);
        try (OtlpReceiver rx = new OtlpReceiver()) {
            rx.failWith("/v1/traces", 400);
            LiveExport export = new LiveExport(OtlpTarget.of(rx.base(), Map.of(), 2_000), Clock.systemUTC(), 100).started();
            export.recorded(tmp.toString(), line);
            Map<String, Object> failed = poll(export::status, s -> s.containsKey("last_error"));
            assertThat(failed).containsEntry("failed", 1L).containsEntry("sent", 0L);
            rx.failWith("/v1/traces", 200);
            export.recorded(tmp.toString(), line);
            poll(export::status, s -> Long.valueOf(1L).equals(s.get("sent")));
            export.close();
            assertThat(rx.to("/v1/traces")).hasSizeGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void wanted_onlyWithTheSwitch_andNotWhenTheSdkIsDisabled() {
        assertThat(LiveExport.wanted(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318"))).isFalse();
        assertThat(LiveExport.wanted(Map.of(LiveExport.SWITCH, "on"))).isTrue();
        assertThat(LiveExport.wanted(Map.of(LiveExport.SWITCH, "1"))).isTrue();
        assertThat(LiveExport.wanted(Map.of(LiveExport.SWITCH, "off"))).isFalse();
        assertThat(LiveExport.wanted(Map.of(LiveExport.SWITCH, "on", "OTEL_SDK_DISABLED", "true"))).isFalse();
        assertThat(LiveExport.wanted(Map.of(LiveExport.SWITCH, "http://127.0.0.1:4318"))).isTrue();
        assertThat(LiveExport.wanted(Map.of(LiveExport.SWITCH, "collector:4318"))).isFalse();
        assertThat(LiveExport.wanted(Map.of(LiveExport.SWITCH, "on", "WARDEN_OTEL_SDK_DISABLED", "true"))).isFalse();
    }

    @Test
    void switchedOnWithoutACollector_isAClearError() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LiveExport.start(Map.of(LiveExport.SWITCH, "on"),
                Clock.systemUTC())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no collector: set "
                + LiveExport.SWITCH + " to its base URL");
    }

    @Test
    void wardenPrefixedVariables_winOverTheStandardOnes() {
        Map<String, String> otel = LiveExport.otel(Map.of("OTEL_SERVICE_NAME", "host", "WARDEN_OTEL_SERVICE_NAME", "warden",
                "OTEL_EXPORTER_OTLP_HEADERS", "a=b"));
        assertThat(otel).containsEntry("OTEL_SERVICE_NAME", "warden").containsEntry("OTEL_EXPORTER_OTLP_HEADERS", "a=b");
    }

    /** Each span's name, parent-or-not and attributes, ids left out, in a stable order. */
    private static List<String> shape(List<Span> spans) {
        List<String> out = new ArrayList<>();
        for (Span s : spans) {
            List<KeyValue> attrs = new ArrayList<>(s.getAttributesList());
            attrs.sort(Comparator.comparing(KeyValue::getKey));
            out.add(s.getName() + " parent=" + !s.getParentSpanId().isEmpty() + " " + s.getStartTimeUnixNano() + "-"
                    + s.getEndTimeUnixNano() + " " + attrs.stream().map(kv -> kv.getKey() + "=" + kv.getValue()).toList());
        }
        out.sort(null);
        return out;
    }

    private static <T> T poll(Callable<T> read, java.util.function.Predicate<T> done) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            T value = read.call();
            if (done.test(value)) {
                return value;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 30 s; last: " + value);
            }
            Thread.sleep(50);
        }
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
