package dev.agentwarden.shell;

import java.util.List;

/**
 * One simple command of a shell script: its leading variable assignments, its words (the command
 * name first, redirections removed), and what its standard input is known to be.
 */
public final class SimpleCommand {

    private final List<ShellWord> assignments;
    private final List<ShellWord> words;
    private final boolean pipedInput;
    private StringBuilder stdin;

    SimpleCommand(List<ShellWord> assignments, List<ShellWord> words, boolean pipedInput) {
        this.assignments = assignments;
        this.words = words;
        this.pipedInput = pipedInput;
    }

    /** {@code NAME=value} words before the command name, in order. */
    public List<ShellWord> assignments() {
        return assignments;
    }

    /** The command name and its arguments; empty for a command that only assigns variables. */
    public List<ShellWord> words() {
        return words;
    }

    /** Whether standard input comes from the previous command of a pipeline ({@code a | b}). */
    public boolean pipedInput() {
        return pipedInput;
    }

    /** The text of its here-documents and here-strings, in order, or {@code null} when it has none. */
    public String stdin() {
        return stdin == null ? null : stdin.toString();
    }

    void appendStdin(String text) {
        if (stdin == null) {
            stdin = new StringBuilder(text.length());
        }
        stdin.append(text);
    }

    @Override
    public String toString() {
        return assignments + " " + words + (pipedInput ? " <pipe" : "") + (stdin != null ? " <<" + stdin : "");
    }
}
