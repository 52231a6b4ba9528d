package dev.agentwarden.cli;

import dev.agentwarden.export.ExportFailed;
import dev.agentwarden.export.ExportSince;
import dev.agentwarden.export.OtlpExport;
import dev.agentwarden.export.OtlpTarget;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.ZoneId;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code warden export --otlp URL}: the project's decisions and subagent runs to an OpenTelemetry collector. */
@Command(name = "export", description = {"Send the project's decision log and subagent ledger to an OpenTelemetry "
        + "collector over OTLP/HTTP (protobuf): spans (invoke_agent, execute_tool, apply_guardrail), a log record per "
        + "decision and metrics. Headers and resource attributes come from OTEL_EXPORTER_OTLP_HEADERS, "
        + "OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME (see docs/opentelemetry.md).",
        "Exit 0 when everything was sent, 2 on bad input or when the collector did not take it."})
final class ExportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Mixin
    ProjectDirOption project = new ProjectDirOption();
    @Option(names = "--otlp", paramLabel = "URL", description = "The collector's base URL, as OTEL_EXPORTER_OTLP_ENDPOINT "
            + "(default: that variable); /v1/traces, /v1/logs and /v1/metrics are appended.")
    String url;
    @Option(names = "--since", paramLabel = "AGE|DATE", description = "Only from then on: today, 1h, 30m, 7d, a local "
            + "date (2026-11-05) or an instant (2026-11-05T08:30:00Z). Default: everything.")
    String since;
    @Option(names = "--timeout", paramLabel = "SECONDS", description = "Deadline of each request (default 10).")
    int timeoutSeconds = 10;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        String name = spec.qualifiedName();
        // the administrator's collector where the user's environment names none (docs/user-layer.md)
        Map<String, String> env = dev.agentwarden.managed.ManagedLayer.load().settings().withTelemetry(WardenCli.env(spec));
        try {
            if (timeoutSeconds < 1 || timeoutSeconds > 600) {
                throw new IllegalArgumentException("--timeout must be 1 to 600 seconds");
            }
            Clock clock = Clock.systemUTC();
            long sinceMs = since == null ? Long.MIN_VALUE : ExportSince.parse(since, clock, ZoneId.systemDefault());
            OtlpTarget target = OtlpTarget.of(url, env, timeoutSeconds * 1000L);
            OtlpExport.Result r = OtlpExport.run(project.root(env), target, sinceMs, clock);
            spec.commandLine().getOut().println("exported " + r.decisions() + " decisions and " + r.runs()
                    + " subagent runs to " + target.base() + ": " + r.spans() + " spans, " + r.logRecords()
                    + " log records" + (r.unreadable() > 0 ? "; " + r.unreadable() + " unreadable lines skipped" : ""));
            return ExitCode.OK.code();
        } catch (IllegalArgumentException | ExportFailed e) {
            err.println(name + ": " + e.getMessage());
            return ExitCode.UNREADABLE.code();
        } catch (IOException e) {
            err.println(CliErrors.failed(spec, e));
            return ExitCode.UNREADABLE.code();
        }
    }
}
