package dev.agentwarden.shell;

import java.util.List;

/**
 * A shell command line split into the simple commands a POSIX shell or bash would run, with
 * quotes, escapes and {@code $'…'} decoded. The inner commands of command substitutions
 * ({@code $(…)}, backticks, {@code <(…)}) are listed as commands of their own; here-document bodies
 * are attached to their command as standard input, not parsed as commands.
 *
 * <p>It is a tokenizer, not an interpreter: it expands no variable, runs nothing, and accepts
 * scripts the shell would reject. Nesting deeper than {@link #MAX_NESTING} stops the parse, and
 * {@link #complete()} is then false.
 */
public final class ShellScript {

    /** The deepest nesting of substitutions, quotes within substitutions and {@code ${…}}. */
    public static final int MAX_NESTING = 16;

    private final List<SimpleCommand> commands;
    private final boolean complete;

    ShellScript(List<SimpleCommand> commands, boolean complete) {
        this.commands = commands;
        this.complete = complete;
    }

    /** Splits {@code source}; linear in its length. */
    public static ShellScript parse(String source) {
        return ShellParser.parse(source);
    }

    /** Whether {@code word} has the form of a variable assignment, {@code NAME=…} or {@code NAME+=…}. */
    public static boolean isAssignment(String word) {
        return ShellParser.isAssignment(word);
    }

    /** Every simple command, substitution contents before the command that contains them. */
    public List<SimpleCommand> commands() {
        return commands;
    }

    /** False when nesting deeper than {@link #MAX_NESTING} cut the parse short. */
    public boolean complete() {
        return complete;
    }
}
