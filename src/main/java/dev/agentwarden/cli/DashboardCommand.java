package dev.agentwarden.cli;

import dev.agentwarden.dashboard.Dashboard;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code warden dashboard}: the report's views in a browser, updated live as decisions arrive, until Ctrl-C. */
@Command(name = "dashboard", description = {
        "Serve the report's views on 127.0.0.1, updated live as decisions arrive (server-sent events), until Ctrl-C.",
        "Open the URL it prints: its token is traded for a cookie; other users, hosts and origins are refused."})
final class DashboardCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    ProjectDirOption project;

    @Option(names = "--port", paramLabel = "N", defaultValue = "0", description = "Port on 127.0.0.1; 0 (the default) picks a free one.")
    int port;

    @Mixin
    DecisionWindow window;

    Clock clock = Clock.systemUTC();

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Map<String, String> env = WardenCli.env(spec);
        if (port < 0 || port > 65535) {
            err.println("warden dashboard: --port " + port + " is outside 0..65535");
            return ExitCode.UNREADABLE.code();
        }
        DecisionWindow.Resolved chosen = window.resolve("dashboard", project, env, clock, err);
        if (chosen == null) {
            return ExitCode.UNREADABLE.code();
        }
        String sinceIso = chosen.sinceIso();
        List<String> roots = chosen.roots();
        Dashboard dashboard;
        try {
            dashboard = Dashboard.start(new Dashboard.Settings(port, roots, sinceIso, clock, Dashboard.MAX_EVENT_CLIENTS));
        } catch (IOException e) {
            err.println("warden dashboard: " + e.getMessage());
            return ExitCode.UNREADABLE.code();
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            dashboard.close();
            stopped.countDown();
        }, "warden-dashboard-shutdown"));
        out.println("warden dashboard: " + roots.size() + " project(s)" + (sinceIso == null ? "" : ", since " + sinceIso));
        out.println("open " + dashboard.url());
        out.println("(the token in this URL is the key to the dashboard; Ctrl-C stops it)");
        out.flush();
        stopped.await();
        return ExitCode.OK.code();
    }
}
