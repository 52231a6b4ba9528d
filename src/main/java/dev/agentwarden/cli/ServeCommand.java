package dev.agentwarden.cli;

import dev.agentwarden.install.HostSetup;
import dev.agentwarden.install.HostSetups;
import dev.agentwarden.json.Json;
import dev.agentwarden.server.ServeState;
import dev.agentwarden.server.WardenServer;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code warden serve}: runs {@link WardenServer} until the process is stopped, with its port and
 * bearer token in {@code serve.json} ({@link ServeState}) for as long as it runs.
 */
@Command(name = "serve", description = {
        "Serve dispatch over HTTP on 127.0.0.1: POST /dispatch/<host>/<NativeEvent> answers like `warden dispatch`.",
        "Port and bearer token go to serve.json in the Warden cache dir (mode 0600), removed on shutdown."})
final class ServeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--port", paramLabel = "P", defaultValue = "0", description = "Port on 127.0.0.1; 0 picks a free one.")
    int port;
    @Option(names = "--project-dir", paramLabel = "D", description = "Passed to every dispatch as --project-dir.")
    Path projectDir;
    @Option(names = "--manifest", paramLabel = "F", description = "Passed to every dispatch as --manifest.")
    Path manifest;
    @Option(names = "--threads", paramLabel = "N", defaultValue = "4", description = "Request threads (1..64).")
    int threads;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Map<String, String> env = System.getenv();
        String token = ServeState.newToken();
        WardenServer server = WardenServer.start(port, absolute(projectDir), absolute(manifest), token, threads,
                env, Clock.systemUTC());
        Path stateFile = ServeState.file(env);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            ServeState.removeIfOurs(stateFile, token);
            stopped.countDown();
        }, "warden-serve-shutdown"));
        ServeState.write(stateFile, server.port(), token, ProcessHandle.current().pid());

        out.println("warden serve: listening on " + server.url() + "dispatch/<host>/<NativeEvent>");
        out.println("state: " + stateFile + " (port, token, pid; mode 0600)");
        out.println("token: export WARDEN_TOKEN=\"$(sed -n 's/.*\"token\":\"\\([0-9a-f]*\\)\".*/\\1/p' " + stateFile + ")\"");
        for (HostSetup setup : HostSetups.ALL) {
            if (setup.serveHooks() != null) {
                out.println(setup.serveHooks().heading());
                out.println(Json.writePretty(setup.serveHooks().block(server.port())));
            }
        }
        out.flush();
        stopped.await();
        return ExitCode.OK.code();
    }

    private static String absolute(Path p) {
        return p == null ? null : p.toAbsolutePath().normalize().toString();
    }
}
