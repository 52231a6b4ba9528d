package dev.agentwarden.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

/** One in-process {@code warden} run: exit code and what it printed. */
record CliRun(int exit, String out, String err) {

    /** In this process's environment (whose {@code XDG_STATE_HOME} the build points at {@code target/}). */
    static CliRun of(String... args) {
        return in(System.getenv(), args);
    }

    /** In {@code env} instead of the process environment. */
    static CliRun in(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = WardenCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true), env);
        return new CliRun(exit, out.toString(), err.toString());
    }
}
