package dev.agentwarden.shell;

/**
 * One shell word after quote removal: its literal text, and whether the shell would change it
 * before running the command.
 *
 * <p>{@code dynamic}: part of the word is an expansion whose value is known only at run time
 * ({@code $x}, {@code ${x}}, {@code $(…)}, backticks, {@code $((…))}, {@code <(…)}); the text then
 * holds only the literal parts. {@code pattern}: the word has an unquoted glob or brace expansion
 * ({@code * ? [ {a,b}}), so it may become other words. {@code quoted}: some part was quoted or
 * escaped, so it is never a reserved word.
 */
public final class ShellWord {

    private final String text;
    private final boolean dynamic;
    private final boolean pattern;
    private final boolean quoted;

    ShellWord(String text, boolean dynamic, boolean pattern, boolean quoted) {
        this.text = text;
        this.dynamic = dynamic;
        this.pattern = pattern;
        this.quoted = quoted;
    }

    public String text() {
        return text;
    }

    /** Whether an expansion makes the word's value unknown until run time. */
    public boolean dynamic() {
        return dynamic;
    }

    /** Whether an unquoted glob or brace expansion may turn the word into other words. */
    public boolean pattern() {
        return pattern;
    }

    /** Whether the word's value is exactly {@link #text()} when the command runs. */
    public boolean literal() {
        return !dynamic && !pattern;
    }

    public boolean quoted() {
        return quoted;
    }

    @Override
    public String toString() {
        return dynamic || pattern ? text + (dynamic ? "<dynamic>" : "<pattern>") : text;
    }
}
