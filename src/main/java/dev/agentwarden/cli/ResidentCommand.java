package dev.agentwarden.cli;

import dev.agentwarden.io.OwnedPath;
import dev.agentwarden.io.CacheDir;
import dev.agentwarden.digest.Sha256;
import dev.agentwarden.server.Resident;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code warden resident start|status|stop}: the resident server that {@code bin/warden dispatch}
 * forwards events to ({@link Resident}). {@code bin/warden} starts it on its own; these commands
 * are for looking at it and stopping it.
 */
@Command(name = "resident", description = {
        "The resident server bin/warden dispatch hands events to instead of starting a JVM per event.",
        "bin/warden starts it in the background when WARDEN_RESIDENT is not 'off'; it stops after an idle period."},
        subcommands = {ResidentCommand.Start.class, ResidentCommand.Status.class, ResidentCommand.Stop.class})
final class ResidentCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Where a resident's files are and which key names them. */
    static class Where {
        @Option(names = "--dir", paramLabel = "D", description = "Resident directory (default: <Warden cache dir>/resident).")
        Path dir;
        @Option(names = "--key", paramLabel = "K", description = "Resident key (default: from this jar's SHA-256, as bin/warden names it).")
        String key;

        Path dir() {
            return dir != null ? dir : CacheDir.root(System.getenv()).resolve("resident");
        }

        String key() throws IOException {
            return key != null ? key : jarKey();
        }
    }

    /** The first 16 hex digits of this jar's SHA-256: the name bin/warden gives this jar's resident. */
    static String jarKey() throws IOException {
        Path jar;
        try {
            jar = Path.of(ResidentCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            throw new IOException("cannot locate this jar; pass --key", e);
        }
        if (!Files.isRegularFile(jar)) {
            throw new IOException("not running from a jar (" + jar + "); pass --key");
        }
        return Sha256.hex(Files.readAllBytes(jar)).substring(0, 16);
    }

    @Command(name = "start", description = "Run the resident server in the foreground until it has been idle for --idle-exit seconds.")
    static final class Start implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Mixin
        Where where;
        @Option(names = "--idle-exit", paramLabel = "SECONDS", description = "Stop after this long without a request (default: 1800).")
        long idleSeconds = Resident.DEFAULT_IDLE.toSeconds();
        @Option(names = "--log", paramLabel = "FILE", description = {"Append what it reports to FILE (created 0600,"
                + " never through a symlink) once its directory is found private, instead of to stdout."})
        Path log;

        @Override
        public Integer call() throws Exception {
            PrintWriter shown = spec.commandLine().getOut();
            if (idleSeconds < 1) {
                throw new IllegalArgumentException("--idle-exit must be at least 1 second, got " + idleSeconds);
            }
            if (where.dir == null) {
                // bin/warden names the directory and creates it; a resident never recreates a given one
                OwnedPath.createPrivateDirectories(where.dir());
            }
            if (log != null) {
                // the refusal of a shared directory goes to stderr: nothing is written into it
                Resident.requirePrivate(where.dir());
                PrintStream logStream = new PrintStream(Resident.openLog(log), true, StandardCharsets.UTF_8);
                System.setOut(logStream);
                System.setErr(logStream);
                shown = new PrintWriter(logStream, true);
            }
            PrintWriter out = shown;
            Resident resident = Resident.start(where.dir(), where.key(), System.getenv(), Clock.systemUTC());
            if (resident == null) {
                out.println("warden resident: another resident already serves key " + where.key() + " in " + where.dir());
                return ExitCode.OK.code();
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> stopped(resident, out, "stopped"),
                    "warden-resident-shutdown"));
            out.println("warden resident: serving " + resident.server().url() + " (key " + where.key()
                    + ", pid " + ProcessHandle.current().pid() + "); stops after " + idleSeconds + " s idle");
            out.flush();
            resident.warmUp(System.getenv(), out);
            resident.serveUntilIdle(Duration.ofSeconds(idleSeconds));
            stopped(resident, out, "idle for " + idleSeconds + " s; stopped");
            return ExitCode.OK.code();
        }

        /** Stops serving (once) and says how many events were forwarded to it. */
        private static void stopped(Resident resident, PrintWriter out, String why) {
            if (resident.close()) {
                out.println("warden resident: " + why + " after answering " + resident.server().forwardedCount()
                        + " forwarded events");
                out.flush();
            }
        }
    }

    /**
     * A command about the resident that the endpoint file names, if that process is alive and is
     * that resident (this user's, started when the file says, running {@code resident start} for
     * the key): a stale or planted file never makes it act on another process.
     */
    abstract static class OnEndpoint implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Mixin
        Where where;

        @Override
        public Integer call() throws Exception {
            Path file = Resident.endpointFile(where.dir(), where.key());
            Resident.Endpoint endpoint = Resident.read(file);
            Optional<ProcessHandle> process = endpoint == null ? Optional.empty() : Resident.process(endpoint, where.key());
            return run(spec.commandLine().getOut(), file, endpoint, process);
        }

        /**
         * @param endpoint what the file states, or {@code null}
         * @param process  the live resident it names, if it is one
         */
        abstract int run(PrintWriter out, Path file, Resident.Endpoint endpoint, Optional<ProcessHandle> process)
                throws Exception;
    }

    @Command(name = "status", description = "Say whether a resident server is running; exit 0 if so, 1 if not.")
    static final class Status extends OnEndpoint {
        @Override
        int run(PrintWriter out, Path file, Resident.Endpoint endpoint, Optional<ProcessHandle> process) {
            if (process.isEmpty()) {
                out.println("warden resident: not running (" + file + (endpoint == null ? " absent)"
                        : " names pid " + endpoint.pid() + ", which is not this resident)"));
                return ExitCode.FINDINGS.code();
            }
            out.println("warden resident: running, pid " + endpoint.pid() + ", http://127.0.0.1:" + endpoint.port() + "/");
            return ExitCode.OK.code();
        }
    }

    @Command(name = "stop", description = "Stop the resident server (if any) and wait for it to exit.")
    static final class Stop extends OnEndpoint {
        @Override
        int run(PrintWriter out, Path file, Resident.Endpoint endpoint, Optional<ProcessHandle> process)
                throws Exception {
            if (process.isEmpty()) {
                out.println("warden resident: not running" + (endpoint == null ? ""
                        : " (" + file + " names pid " + endpoint.pid() + ", which is not this resident; left alone)"));
                return ExitCode.OK.code();
            }
            Resident.terminate(process.get(), Duration.ofSeconds(30));
            out.println("warden resident: stopped pid " + endpoint.pid());
            return ExitCode.OK.code();
        }
    }
}
