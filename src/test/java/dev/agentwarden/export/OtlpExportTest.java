package dev.agentwarden.export;

import dev.agentwarden.testing.WardenProcess;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.agentwarden.cli.WardenCli;
import dev.agentwarden.digest.Sha256;
import dev.agentwarden.json.Json;
import dev.agentwarden.ledger.LedgerLine.Event;
import dev.agentwarden.ledger.LedgerLine.Key;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code warden export --otlp} against an in-test OTLP/HTTP receiver that decodes the official protobufs. */
class OtlpExportTest {
    private static final String SECRET_PROMPT = "sk-live-PROMPT-7f3a9c1e55d04b2a";
    private static final String SECRET_INPUT = "ghp_INPUTsecret0123456789abcdefXYZ";
    private static final String HOST_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String HOST_SPAN = "00f067aa0ba902b7";
    private static final String AT = "2026-11-05T08:30:00.250Z";

    @TempDir
    Path tmp;

    record Run(int exit, String out, String err) {
    }

    private static Run export(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Map<String, String> e = new HashMap<>(System.getenv());
        e.keySet().removeIf(k -> k.startsWith("OTEL_"));
        e.putAll(env);
        int exit = WardenCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true), e);
        return new Run(exit, out.toString(), err.toString());
    }

    /** Two subagent runs (one a child of the other), one that never returned, and decisions in and outside them. */
    private ExportProject project(String manifest) throws IOException {
        ExportProject p = new ExportProject(tmp, manifest);
        Map<Key, Object> parent = new LinkedHashMap<>();
        parent.put(Key.REF, ExportProject.ref("agent-parent"));
        parent.put(Key.SESSION_ID, "s1");
        parent.put(Key.AGENT_TYPE, "general-purpose");
        p.ledger("2026-11-05T08:29:00.000Z", Event.SUBAGENT_START, parent);
        Map<Key, Object> child = new LinkedHashMap<>();
        child.put(Key.REF, ExportProject.ref("agent-child"));
        child.put(Key.SESSION_ID, "s1");
        child.put(Key.AGENT_TYPE, "Explore");
        child.put(Key.PARENT_REF, ExportProject.ref("agent-parent"));
        p.ledger("2026-11-05T08:29:10.500Z", Event.SUBAGENT_START, child);
        Map<Key, Object> lost = new LinkedHashMap<>();
        lost.put(Key.REF, ExportProject.ref("agent-lost"));
        lost.put(Key.SESSION_ID, "s1");
        lost.put(Key.AGENT_TYPE, "Plan");
        p.ledger("2026-11-05T08:29:50.000Z", Event.SUBAGENT_START, lost);
        p.dispatch(AT, Map.of(), "PreToolUse", ExportProject.bash("s1", "agent-child",
                "curl -H 'Authorization: " + SECRET_INPUT + "' x && sudo rm -rf /"));
        p.dispatch("2026-11-05T08:30:05.000Z", Map.of("TRACEPARENT", "00-" + HOST_TRACE + "-" + HOST_SPAN + "-01"),
                "PreToolUse", ExportProject.bash("s1", null, "ls -la"));
        p.dispatch("2026-11-05T08:30:06.000Z", Map.of(), "UserPromptSubmit",
                ExportProject.prompt("s1", "use " + SECRET_PROMPT + " with sudo"));
        Map<Key, Object> childStop = new LinkedHashMap<>(child);
        childStop.remove(Key.PARENT_REF);
        childStop.put(Key.DURATION_MS, 50_000L);
        p.ledger("2026-11-05T08:30:00.500Z", Event.SUBAGENT_STOP, childStop);
        Map<Key, Object> parentStop = new LinkedHashMap<>(parent);
        parentStop.put(Key.DURATION_MS, 120_000L);
        p.ledger("2026-11-05T08:31:00.000Z", Event.SUBAGENT_STOP, parentStop);
        return p;
    }

    @Test
    void spans_logs_and_metrics_reachTheCollector_joinedToRunsAndTheHostsTrace() throws Exception {
        ExportProject p = project(ExportProject.MANIFEST + "decision_log:\n  reasons: verbatim\n");
        try (OtlpReceiver rx = new OtlpReceiver()) {
            Run run = export(Map.of(), "export", "--otlp", rx.base() + "/", "--project-dir", tmp.toString());

            assertThat(run.exit()).as("stderr %s", run.err()).isZero();
            assertThat(run.out()).contains("exported 3 decisions and 3 subagent runs");
            for (OtlpReceiver.Request r : rx.requests()) {
                assertThat(r.contentType()).isEqualTo("application/x-protobuf");
            }
            List<Span> spans = rx.spans();
            Span parent = named(spans, "invoke_agent general-purpose");
            Span child = named(spans, "invoke_agent Explore");
            Span lost = named(spans, "invoke_agent Plan");
            assertThat(nanos(parent.getStartTimeUnixNano())).isEqualTo(Instant.parse("2026-11-05T08:29:00Z"));
            assertThat(nanos(parent.getEndTimeUnixNano())).isEqualTo(Instant.parse("2026-11-05T08:31:00Z"));
            assertThat(nanos(child.getStartTimeUnixNano())).isEqualTo(Instant.parse("2026-11-05T08:29:10.500Z"));
            assertThat(nanos(child.getEndTimeUnixNano())).isEqualTo(Instant.parse("2026-11-05T08:30:00.500Z"));
            assertThat(child.getParentSpanId()).isEqualTo(parent.getSpanId());
            assertThat(child.getTraceId()).isEqualTo(parent.getTraceId());
            assertThat(parent.getParentSpanId()).isEqualTo(ByteString.EMPTY);
            assertThat(attr(parent, "gen_ai.operation.name").getStringValue()).isEqualTo("invoke_agent");
            assertThat(attr(child, "gen_ai.agent.name").getStringValue()).isEqualTo("Explore");
            assertThat(attr(child, "gen_ai.agent.id").getStringValue()).isEqualTo(ExportProject.ref("agent-child"));
            assertThat(attr(child, "warden.subagent.returned").getBoolValue()).isTrue();
            assertThat(attr(lost, "warden.subagent.returned").getBoolValue()).isFalse();

            List<Span> tools = all(spans, "execute_tool Bash");
            assertThat(tools).hasSize(2);
            Span blocked = tools.get(0);
            Span joined = tools.get(1);
            assertThat(nanos(blocked.getStartTimeUnixNano())).isEqualTo(Instant.parse(AT));
            assertThat(blocked.getEndTimeUnixNano()).isGreaterThanOrEqualTo(blocked.getStartTimeUnixNano());
            assertThat(blocked.getParentSpanId()).as("a subagent's tool call is under its run").isEqualTo(child.getSpanId());
            assertThat(blocked.getTraceId()).isEqualTo(child.getTraceId());
            assertThat(attr(blocked, "gen_ai.tool.name").getStringValue()).isEqualTo("Bash");
            assertThat(attr(blocked, "warden.verdict").getStringValue()).isEqualTo("block");
            assertThat(HexFormat.of().formatHex(joined.getTraceId().toByteArray())).as("the host's trace").isEqualTo(HOST_TRACE);
            assertThat(HexFormat.of().formatHex(joined.getParentSpanId().toByteArray())).isEqualTo(HOST_SPAN);

            String manifestSha = Sha256.hex(Files.readAllBytes(p.manifest));
            List<Span> guards = all(spans, "apply_guardrail no-rm-root");
            assertThat(guards).hasSize(2);
            Span guard = guards.get(0);
            assertThat(guard.getParentSpanId()).isEqualTo(blocked.getSpanId());
            assertThat(guard.getTraceId()).isEqualTo(blocked.getTraceId());
            assertThat(guard.getStartTimeUnixNano()).isEqualTo(blocked.getStartTimeUnixNano());
            assertThat(attr(guard, "gen_ai.operation.name").getStringValue()).isEqualTo("apply_guardrail");
            assertThat(attr(guard, "gen_ai.guardrail.policy.id").getStringValue()).isEqualTo(p.manifest.toString());
            assertThat(attr(guard, "gen_ai.guardrail.policy.version").getStringValue()).isEqualTo(manifestSha);
            assertThat(attr(guard, "gen_ai.guardrail.result.type").getStringValue()).isEqualTo("block");
            assertThat(attr(guard, "gen_ai.guardrail.result.value").getStringValue()).isEqualTo("block");
            assertThat(attr(guard, "gen_ai.guardrail.result.reason").getStringValue())
                    .isEqualTo("removes the whole file system");
            Span shadow = all(spans, "apply_guardrail sudo-shadow").get(0);
            assertThat(shadow.getParentSpanId()).isEqualTo(blocked.getSpanId());
            assertThat(attr(shadow, "warden.concern.would_block").getBoolValue()).isTrue();
            assertThat(shadow.getStartTimeUnixNano()).as("after the concern before it")
                    .isEqualTo(guard.getEndTimeUnixNano());
            Span promptHook = named(spans, "warden.hook user_prompt_submit");
            assertThat(all(spans, "apply_guardrail sudo-shadow").get(2).getParentSpanId())
                    .isEqualTo(promptHook.getSpanId());

            assertThat(attr(rx.spanResources().get(0).getAttributesList(), "service.name").getStringValue())
                    .isEqualTo("agent-warden");

            List<LogRecord> logs = rx.logRecords();
            List<String> lines = p.decisionLines();
            assertThat(logs).hasSize(3);
            for (int i = 0; i < 3; i++) {
                assertThat(Json.parseObject(logs.get(i).getBody().getStringValue()))
                        .isEqualTo(Json.parseObject(lines.get(i)));
            }
            assertThat(logs.get(0).getSpanId()).as("the log record is joined to its span").isEqualTo(blocked.getSpanId());
            assertThat(logs.get(0).getSeverityText()).isEqualTo("block");
            assertThat(logs.get(0).getEventName()).isEqualTo("warden.decision");

            Metric decisions = metric(rx.metrics(), "warden.decisions");
            long total = 0;
            for (NumberDataPoint d : decisions.getSum().getDataPointsList()) {
                total += d.getAsInt();
            }
            assertThat(total).isEqualTo(3);
            assertThat(metric(rx.metrics(), "warden.hook.duration").getHistogram().getDataPointsList())
                    .extracting(h -> h.getCount()).containsExactlyInAnyOrder(2L, 1L);
            Metric guardrails = metric(rx.metrics(), "warden.guardrail.evaluations");
            assertThat(guardrails.getSum().getDataPointsList()).isNotEmpty();
        }
    }

    @Test
    void plantedSecrets_inPromptAndToolInput_areInNoExportedByte() throws Exception {
        Path script = tmp.resolve("echo-input.sh");
        WardenProcess.writeScript(script, "#!/bin/sh\ninput=$(cat)\necho \"saw: $input\"\necho \"also saw: $input\" >&2\nexit 2\n");
        ExportProject p = project(ExportProject.MANIFEST
                .replace("concerns:\n", "concerns:\n  echo:\n    script: echo-input.sh\n    posture: shadow\n")
                .replace("pre_tool_use: [no-rm-root,", "pre_tool_use: [echo, no-rm-root,")
                .replace("user_prompt_submit: [sudo-shadow]", "user_prompt_submit: [echo, sudo-shadow]"));
        try (OtlpReceiver rx = new OtlpReceiver()) {
            Run run = export(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", rx.base(),
                    "OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer%20collector-token,x-team=agents",
                    "OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=ci,service.name=overridden",
                    "OTEL_SERVICE_NAME", "warden-fleet", "OTEL_EXPORTER_OTLP_COMPRESSION", "gzip"),
                    "export", "--project-dir", tmp.toString());

            assertThat(run.exit()).as("stderr %s", run.err()).isZero();
            assertThat(all(rx.spans(), "apply_guardrail echo")).as("the echoing concern ran").hasSize(3);
            assertThat(rx.requests()).extracting(OtlpReceiver.Request::path)
                    .contains("/v1/traces", "/v1/logs", "/v1/metrics");
            for (OtlpReceiver.Request r : rx.requests()) {
                String bytes = new String(r.body(), StandardCharsets.ISO_8859_1);
                assertThat(bytes).as("%s", r.path()).doesNotContain(SECRET_PROMPT).doesNotContain(SECRET_INPUT)
                        .doesNotContain("PROMPT-7f3a").doesNotContain("INPUTsecret");
                assertThat(r.headers().get("Authorization")).containsExactly("Bearer collector-token");
                assertThat(r.headers().get("Content-encoding")).containsExactly("gzip");
                assertThat(r.headers().get("X-team")).containsExactly("agents");
            }
            List<KeyValue> resource = rx.spanResources().get(0).getAttributesList();
            assertThat(attr(resource, "service.name").getStringValue()).isEqualTo("warden-fleet");
            assertThat(attr(resource, "deployment.environment").getStringValue()).isEqualTo("ci");
        }
    }

    @Test
    void since_exportsOnlyWhatHappenedFromThenOn() throws Exception {
        project(ExportProject.MANIFEST);
        try (OtlpReceiver rx = new OtlpReceiver()) {
            Run run = export(Map.of(), "export", "--otlp", rx.base(), "--project-dir", tmp.toString(),
                    "--since", "2026-11-05T08:30:04Z");

            assertThat(run.exit()).as("stderr %s", run.err()).isZero();
            List<Span> spans = rx.spans();
            assertThat(all(spans, "execute_tool Bash")).hasSize(1);
            assertThat(all(spans, "warden.hook user_prompt_submit")).hasSize(1);
            assertThat(all(spans, "invoke_agent Explore")).as("stopped before --since").isEmpty();
            assertThat(all(spans, "invoke_agent general-purpose")).as("stopped after --since").hasSize(1);
            assertThat(rx.logRecords()).hasSize(2);
        }
    }

    @Test
    void unreachableCollector_oneLineError_nonZeroExit_withinItsDeadline() throws Exception {
        project(ExportProject.MANIFEST);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        long t0 = System.nanoTime();
        Run run = export(Map.of(), "export", "--otlp", "http://127.0.0.1:" + port, "--project-dir", tmp.toString(),
                "--timeout", "2");
        long ms = (System.nanoTime() - t0) / 1_000_000;

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).startsWith("warden export: could not send spans to http://127.0.0.1:" + port + "/v1/traces")
                .doesNotContain("\tat ").doesNotContain("Exception:");
        assertThat(run.err().strip().lines()).hasSize(1);
        assertThat(ms).as("3 attempts of 2 s at most, and backoff").isLessThan(30_000);
    }

    @Test
    void collectorRefusing_isAnError_notASilentSuccess() throws Exception {
        project(ExportProject.MANIFEST);
        try (OtlpReceiver rx = new OtlpReceiver()) {
            rx.failWith("/v1/logs", 400);
            Run run = export(Map.of(), "export", "--otlp", rx.base(), "--project-dir", tmp.toString());

            assertThat(run.exit()).isEqualTo(2);
            assertThat(run.err()).startsWith("warden export: could not send log records to " + rx.base() + "/v1/logs")
                    .doesNotContain("\tat ");
        }
    }

    @Test
    void badInput_clearErrors_noStackTrace() throws Exception {
        project(ExportProject.MANIFEST);
        Run since = export(Map.of(), "export", "--otlp", "http://127.0.0.1:1", "--project-dir", tmp.toString(),
                "--since", "yesterdayish");
        assertThat(since.exit()).isEqualTo(2);
        assertThat(since.err()).startsWith("warden export: --since yesterdayish is not today").doesNotContain("\tat ");

        Run noUrl = export(Map.of(), "export", "--project-dir", tmp.toString());
        assertThat(noUrl.exit()).isEqualTo(2);
        assertThat(noUrl.err()).contains("pass --otlp URL or set OTEL_EXPORTER_OTLP_ENDPOINT");

        Run ftp = export(Map.of(), "export", "--otlp", "ftp://collector", "--project-dir", tmp.toString());
        assertThat(ftp.exit()).isEqualTo(2);
        assertThat(ftp.err()).contains("is not an http:// or https:// URL");

        Run header = export(Map.of("OTEL_EXPORTER_OTLP_HEADERS", "authorization"), "export", "--otlp",
                "http://127.0.0.1:1", "--project-dir", tmp.toString());
        assertThat(header.exit()).isEqualTo(2);
        assertThat(header.err()).contains("OTEL_EXPORTER_OTLP_HEADERS has an entry without key=value")
                .doesNotContain("authorization");

        Run zip = export(Map.of("OTEL_EXPORTER_OTLP_COMPRESSION", "brotli"), "export", "--otlp",
                "http://127.0.0.1:1", "--project-dir", tmp.toString());
        assertThat(zip.exit()).isEqualTo(2);
        assertThat(zip.err()).contains("OTEL_EXPORTER_OTLP_COMPRESSION is brotli; give gzip or none");
    }

    /** A line of a newer writer (a managed layer, a rewrite): the managed concern's policy is the managed manifest. */
    @Test
    void managedLayerConcern_policyIsTheManagedManifest_rewriteOnTheDecisionSpan() throws Exception {
        Path dir = tmp.resolve(".warden/state/decisions");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("2026-11.jsonl"), "{\"v\":1,\"ts\":\"2026-11-05T08:30:00.250Z\",\"host\":\"claude\","
                + "\"event\":\"pre_tool_use\",\"native_event\":\"PreToolUse\",\"session_id\":\"s1\",\"ref\":null,"
                + "\"tool\":\"Bash\",\"tool_input_sha256\":\"ab\",\"asked\":\"git push [REDACTED]\",\"transport\":\"own_jvm\","
                + "\"manifest\":{\"source\":\"/p/.warden/manifest.yaml\",\"sha256\":\"p1\"},"
                + "\"managed\":{\"source\":\"/etc/agent-warden/managed.yaml\",\"sha256\":\"m1\"},\"role\":\"\","
                + "\"concerns\":[{\"name\":\"corp-rule\",\"posture\":\"blocking\",\"layer\":\"managed\",\"outcome\":\"allow\","
                + "\"skipped\":null,\"effective\":\"allow\",\"would_block\":false,\"reason\":null,\"reason_sha256\":null,"
                + "\"note\":null,\"exit_code\":null,\"elapsed_us\":40},{\"name\":\"own-rule\",\"posture\":\"blocking\","
                + "\"outcome\":\"allow\",\"skipped\":null,\"effective\":\"allow\",\"would_block\":false,\"reason\":null,"
                + "\"reason_sha256\":null,\"note\":null,\"exit_code\":null,\"elapsed_us\":10}],\"verdict\":\"allow\","
                + "\"emitted\":\"rewrite\",\"downgrades\":[],\"fail_mode\":null,\"problem\":null,\"rewritten\":true,"
                + "\"rewritten_by\":\"corp-rule\",\"input_before_sha256\":\"b\",\"input_after_sha256\":\"a\",\"elapsed_us\":900}\n");
        try (OtlpReceiver rx = new OtlpReceiver()) {
            Run run = export(Map.of(), "export", "--otlp", rx.base(), "--project-dir", tmp.toString());

            assertThat(run.exit()).as("stderr %s", run.err()).isZero();
            List<Span> spans = rx.spans();
            Span corp = named(spans, "apply_guardrail corp-rule");
            assertThat(attr(corp, "gen_ai.guardrail.policy.id").getStringValue()).isEqualTo("/etc/agent-warden/managed.yaml");
            assertThat(attr(corp, "gen_ai.guardrail.policy.version").getStringValue()).isEqualTo("m1");
            assertThat(attr(corp, "warden.concern.layer").getStringValue()).isEqualTo("managed");
            Span own = named(spans, "apply_guardrail own-rule");
            assertThat(attr(own, "gen_ai.guardrail.policy.id").getStringValue()).isEqualTo("/p/.warden/manifest.yaml");
            assertThat(attr(own, "gen_ai.guardrail.policy.version").getStringValue()).isEqualTo("p1");
            Span tool = named(spans, "execute_tool Bash");
            assertThat(attr(tool, "warden.rewritten").getBoolValue()).isTrue();
            assertThat(attr(tool, "warden.rewritten_by").getStringValue()).isEqualTo("corp-rule");
            assertThat(attr(tool, "warden.managed.source").getStringValue()).isEqualTo("/etc/agent-warden/managed.yaml");
            assertThat(Json.parseObject(rx.logRecords().get(0).getBody().getStringValue()).get("asked"))
                    .as("the redacted asked travels in the log record as written").isEqualTo("git push [REDACTED]");
        }
    }

    private static Instant nanos(long unixNanos) {
        return Instant.ofEpochSecond(0, unixNanos);
    }

    private static Span named(List<Span> spans, String name) {
        List<Span> found = all(spans, name);
        assertThat(found).as("spans named %s", name).hasSize(1);
        return found.get(0);
    }

    private static List<Span> all(List<Span> spans, String name) {
        List<Span> out = new ArrayList<>();
        for (Span s : spans) {
            if (s.getName().equals(name)) {
                out.add(s);
            }
        }
        return out;
    }

    private static AnyValue attr(Span span, String key) {
        return attr(span.getAttributesList(), key);
    }

    private static AnyValue attr(List<KeyValue> attributes, String key) {
        for (KeyValue kv : attributes) {
            if (kv.getKey().equals(key)) {
                return kv.getValue();
            }
        }
        throw new AssertionError("no attribute " + key + " in " + attributes);
    }

    private static Metric metric(List<Metric> metrics, String name) {
        for (Metric m : metrics) {
            if (m.getName().equals(name)) {
                return m;
            }
        }
        throw new AssertionError("no metric " + name);
    }
}
