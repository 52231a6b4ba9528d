package dev.agentwarden.shell;

import java.util.ArrayList;
import java.util.List;

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

    /** Longer words are not brace-expanded: finding their braces could take quadratic time. */
    public static final int MAX_BRACE_WORD_CHARS = 1024;

    private final String text;
    private final boolean dynamic;
    private final int fixedPrefix;
    private final boolean pattern;
    private final boolean quoted;

    ShellWord(String text, boolean dynamic, int fixedPrefix, boolean pattern, boolean quoted) {
        this.text = text;
        this.dynamic = dynamic;
        this.fixedPrefix = fixedPrefix;
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

    /**
     * The literal text before the word's first expansion: all of {@link #text()} for a word with
     * none; {@code "-"} for {@code -$x}, {@code "--author="} for {@code --author="$a"}.
     */
    public String fixedPrefix() {
        return text.substring(0, fixedPrefix);
    }

    /**
     * The words bash's brace expansion makes of this one ({@code -{n,a}} gives {@code -n} and
     * {@code -a}; {@code {1..3}} gives three), or {@code null} when it has no brace expansion or
     * would make more than {@code max} words. Every brace is taken as unquoted; a word that is
     * also dynamic or has a glob keeps those marks.
     */
    public List<ShellWord> braceExpanded(int max) {
        if (!pattern || text.indexOf('{') < 0 || text.length() > MAX_BRACE_WORD_CHARS) {
            return null;
        }
        List<String> out = BraceExpansion.expand(text, max);
        if (out == null || (out.size() == 1 && out.get(0).equals(text))) {
            return null;
        }
        List<ShellWord> words = new ArrayList<>(out.size());
        for (String t : out) {
            boolean glob = t.indexOf('*') >= 0 || t.indexOf('?') >= 0 || t.indexOf('[') >= 0;
            words.add(new ShellWord(t, dynamic, dynamic ? Math.min(fixedPrefix, t.length()) : t.length(), glob, quoted));
        }
        return words;
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
