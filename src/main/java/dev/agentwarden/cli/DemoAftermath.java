package dev.agentwarden.cli;

import dev.agentwarden.host.Hosts;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The end of the session replay: what a user looks at afterwards on the demo project, run as they
 * would run it: {@code warden log} (what Warden decided, from the decision log) and, after
 * installing the hooks into the demo project, {@code warden doctor} (whether the set-up is in
 * order). Through {@code bin/warden} with the demo's own environment (its cache, trust store and
 * resident), else in-process.
 */
final class DemoAftermath {
    /** Longest a demo command may take. */
    private static final long LIMIT_SECONDS = 120;

    private DemoAftermath() {
    }

    static void show(DemoEnv env, Path project, Map<String, String> hostEnv) throws IOException, InterruptedException {
        PrintWriter out = env.out();
        String dir = project.toString();
        out.println();
        out.println("$ warden log --project-dir " + dir);
        out.println("(every dispatch above appended one line to .warden/state/decisions/<month>.jsonl: the chain, each"
                + " concern's outcome, the verdict; no prompt or tool input, only their SHA-256)");
        run(env, hostEnv, project, "log", "--project-dir", dir);
        out.println();
        String host = Hosts.demo().id();
        out.println("$ warden install --host " + host + " --project-dir " + dir + " --no-train");
        run(env, hostEnv, project, "install", "--host", host, "--project-dir", dir, "--no-train");
        out.println();
        out.println("$ warden doctor --host " + host + " --scope project --project-dir " + dir);
        out.println("(checks that the installed hooks are what install would write for the manifest in force, that the"
                + " manifest is trusted and lints clean, the resident server, the start-up archive and the recent"
                + " decisions; exit 1 lists each problem with the command that fixes it)");
        int code = run(env, hostEnv, project, "doctor", "--host", host, "--scope", "project", "--project-dir", dir);
        out.println("(doctor exit " + code + ")");
    }

    /** Runs one warden command, prints its output indented; returns its exit code. */
    private static int run(DemoEnv env, Map<String, String> hostEnv, Path project, String... args)
            throws IOException, InterruptedException {
        String text;
        int code;
        if (env.launcher() != null) {
            List<String> command = new ArrayList<>(List.of(env.launcher().toString()));
            command.addAll(List.of(args));
            ProcessBuilder pb = new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true);
            pb.environment().putAll(hostEnv);
            Process p = pb.start();
            p.getOutputStream().close();
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            p.getInputStream().transferTo(bytes);
            if (!p.waitFor(LIMIT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("warden " + String.join(" ", args) + " did not finish within " + LIMIT_SECONDS + " s");
            }
            text = bytes.toString(StandardCharsets.UTF_8);
            code = p.exitValue();
        } else {
            StringWriter buffer = new StringWriter();
            PrintWriter w = new PrintWriter(buffer, true);
            code = WardenCli.execute(args, w, w, hostEnv);
            text = buffer.toString();
        }
        text.lines().forEach(l -> env.out().println("  " + l));
        env.out().flush();
        return code;
    }
}
