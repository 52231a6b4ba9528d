package dev.agentwarden.cli;

import dev.agentwarden.io.ReadProgress;
import dev.agentwarden.json.Json;
import dev.agentwarden.report.Report;
import dev.agentwarden.report.ReportHtml;
import dev.agentwarden.report.ReportText;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code warden report}: what the agents did, summed up from the decision log and the ledger. */
@Command(name = "report", description = "Sum up what the agents did: decisions over time, the most refused commands, "
        + "sessions, subagent durations, the spawn guard, integrity outcomes and hook latency; as text, --json, or a "
        + "self-contained HTML page (--html FILE).")
final class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    JsonOption output;

    @Mixin
    ProjectDirOption project;

    @Mixin
    DecisionWindow window;

    @Option(names = "--html", paramLabel = "FILE", description = "Also write the report as one HTML file (no external assets).")
    Path html;

    Clock clock = Clock.systemUTC();

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Map<String, String> env = WardenCli.env(spec);
        DecisionWindow.Resolved chosen = window.resolve("report", project, env, clock, err);
        if (chosen == null) {
            return ExitCode.UNREADABLE.code();
        }
        String sinceIso = chosen.sinceIso();
        List<String> roots = chosen.roots();
        Report report = Report.read(roots, sinceIso, clock, ReadProgress.onStderr("warden report: reading"));
        if (html != null) {
            try {
                Files.writeString(html, ReportHtml.render(report), StandardCharsets.UTF_8);
            } catch (IOException e) {
                err.println("warden report: cannot write " + html + ": " + e.getMessage());
                return ExitCode.UNREADABLE.code();
            }
        }
        if (output.json) {
            out.println(Json.write(report.toJson()));
        } else {
            ReportText.print(report, out);
            if (html != null) {
                out.println("wrote " + html.toAbsolutePath());
            }
        }
        return ExitCode.OK.code();
    }
}
