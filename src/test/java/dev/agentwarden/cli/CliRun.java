package dev.agentwarden.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One in-process {@code warden} run: exit code and what it printed. */
record CliRun(int exit, String out, String err) {

    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = WardenCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliRun(exit, out.toString(), err.toString());
    }
}
