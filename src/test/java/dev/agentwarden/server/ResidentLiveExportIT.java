package dev.agentwarden.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.export.OtlpReceiver;
import dev.agentwarden.testing.ResidentProcess;
import dev.agentwarden.testing.WardenProcess;
import io.opentelemetry.proto.trace.v1.Span;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Live export from the real resident process: started with {@code WARDEN_OTLP_LIVE} set to an
 * in-test OTLP/HTTP receiver's URL and {@code WARDEN_OTEL_SERVICE_NAME} (the forms a Claude Code
 * hook, which never sees {@code OTEL_*} variables, passes on), it sends each event
 * {@code bin/warden} hands it (no JVM starts for them) as spans, the hook's {@code TRACEPARENT}
 * joining the host's trace; {@code warden doctor} reports what was sent, dropped and the last error.
 */
class ResidentLiveExportIT {
    private static final String HOST_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String HOST_SPAN = "00f067aa0ba902b7";

    @TempDir
    Path tmp;

    @Test
    void residentWithLiveExport_sendsForwardedEvents_andDoctorReportsIt() throws Exception {
        Path project = Files.createDirectories(tmp.resolve("project"));
        Path cache = tmp.resolve("cache");
        Path calls = tmp.resolve("java-calls");
        Path forbiddenJava = ResidentProcess.forbiddenJava(tmp, calls);
        String payload = "{\"session_id\":\"s1\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
                + "\"tool_input\":{\"command\":\"ls\"},\"cwd\":\"" + project + "\"}";
        try (OtlpReceiver rx = new OtlpReceiver();
             ResidentProcess resident = ResidentProcess.start(cache, 600, Map.of("WARDEN_OTLP_LIVE", rx.base(),
                     "WARDEN_OTEL_SERVICE_NAME", "warden-live-it"))) {
            Map<String, String> env = new LinkedHashMap<>(ResidentProcess.noJvm(forbiddenJava));
            env.put("WARDEN_CACHE_DIR", cache.toString());
            env.put("HOME", tmp.toString());
            env.put("CLAUDE_PROJECT_DIR", project.toString());
            Map<String, String> traced = new LinkedHashMap<>(env);
            traced.put("TRACEPARENT", "00-" + HOST_TRACE + "-" + HOST_SPAN + "-01");
            for (Map<String, String> e : List.of(env, traced)) {
                WardenProcess.Result r = WardenProcess.runLauncher(List.of("dispatch", "--host", "claude"), e,
                        payload.getBytes(StandardCharsets.UTF_8), project);
                assertThat(r.exitCode()).as(r.stderr()).isZero();
            }
            ResidentProcess.assertNoJvmStarted(calls);

            List<Span> spans = poll(() -> rx.spansOf("warden-live-it"),
                    s -> s.stream().filter(x -> x.getName().equals("execute_tool Bash")).count() == 2);
            Span joined = spans.stream().filter(s -> s.getName().equals("execute_tool Bash")
                    && hex(s.getParentSpanId().toByteArray()).equals(HOST_SPAN)).findFirst().orElseThrow();
            assertThat(hex(joined.getTraceId().toByteArray())).isEqualTo(HOST_TRACE);
            assertThat(joined.getAttributesList()).anySatisfy(kv -> {
                assertThat(kv.getKey()).isEqualTo("warden.transport");
                assertThat(kv.getValue().getStringValue()).isEqualTo("resident");
            });

            ResidentStatus.Answer a = poll(() -> ResidentStatus.query(ResidentProcess.dirFor(cache),
                    ResidentProcess.jarKey(), Duration.ofSeconds(5)), s -> s.otlp() != null && Long.valueOf(2).equals(s.otlp().get("sent")));
            assertThat(a.otlp()).containsEntry("endpoint", rx.base()).containsEntry("dropped", 0L)
                    .doesNotContainKey("last_error");
            assertThat(doctor(cache)).contains("live OpenTelemetry export to " + rx.base() + ": 2 decision(s) sent, 0 queued"
                    + " (of 10000), 0 dropped on a full queue, 0 in batches the collector did not take");

            rx.failWith("/v1/traces", 400);
            WardenProcess.Result r = WardenProcess.runLauncher(List.of("dispatch", "--host", "claude"), env,
                    payload.getBytes(StandardCharsets.UTF_8), project);
            assertThat(r.exitCode()).as(r.stderr()).isZero();
            poll(() -> ResidentStatus.query(ResidentProcess.dirFor(cache), ResidentProcess.jarKey(), Duration.ofSeconds(5)),
                    s -> s.otlp() != null && s.otlp().containsKey("last_error"));
            assertThat(doctor(cache)).contains("1 in batches the collector did not take; last error")
                    .contains("could not send spans to " + rx.base() + "/v1/traces");
        }
    }

    private String doctor(Path cache) throws Exception {
        WardenProcess.Result doctor = WardenProcess.run(List.of(), List.of("doctor", "--host", "claude", "--scope",
                "project", "--project-dir", tmp.toString()), Map.of("HOME", tmp.toString(), "WARDEN_CACHE_DIR",
                cache.toString(), "WARDEN_NO_ARCHIVE", "1"), new byte[0], tmp);
        return doctor.stdout();
    }

    private static <T> T poll(Callable<T> read, Predicate<T> done) throws Exception {
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
