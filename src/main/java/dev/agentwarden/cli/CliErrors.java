package dev.agentwarden.cli;

import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * How a command's failure reads: what went wrong, named after the full command ({@code warden
 * ledger verify: ...}), and what to do next; never a stack trace. Usage errors print the error, a
 * near-miss when there is one, and where the options are listed, instead of the whole usage.
 */
final class CliErrors {
    private CliErrors() {
    }

    /** A command line picocli could not parse, on {@code err}. */
    static void usage(CommandLine.ParameterException e, PrintWriter err) {
        String command = e.getCommandLine().getCommandSpec().qualifiedName();
        String message = e.getMessage();
        err.println(command + ": " + message);
        if (e instanceof CommandLine.UnmatchedArgumentException u) {
            CommandLine.UnmatchedArgumentException.printSuggestions(u, err);
        }
        if (!message.contains("--help`")) {
            err.println("Run `" + command + " --help` for its options.");
        }
    }

    /** The line for an exception a command did not handle. */
    static String failed(CommandSpec spec, Exception e) {
        return failed(spec.qualifiedName(), e);
    }

    /** {@link #failed(CommandSpec, Exception)} of the command named {@code command} ({@code warden ledger stats}). */
    static String failed(String command, Exception e) {
        String what;
        if (e instanceof NoSuchFileException f) {
            what = "no such file or directory: " + f.getFile() + "; check the path";
        } else if (e instanceof AccessDeniedException f) {
            what = "permission denied: " + f.getFile() + "; check its owner and mode";
        } else if (e instanceof NotDirectoryException f) {
            what = "not a directory: " + f.getFile();
        } else if (e instanceof FileSystemException f && f.getReason() != null) {
            what = f.getFile() + ": " + f.getReason();
        } else {
            what = e.getMessage() == null || e.getMessage().isBlank() ? e.getClass().getSimpleName() : e.getMessage();
        }
        return command + ": " + what + " (see `" + command + " --help`)";
    }
}
