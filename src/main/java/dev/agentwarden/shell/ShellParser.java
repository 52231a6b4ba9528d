package dev.agentwarden.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * The character-level scanner behind {@link ShellScript}: one pass over the source, recursing into
 * command substitutions on the same buffer (backtick bodies and unquoted here-documents get a
 * parser of their own, since their text must first be unescaped or cut out).
 *
 * <p>Operators that end a simple command: {@code ; ;; & && | || |& ( )} and newline. Reserved words
 * that open or close a compound command ({@code { } ! if then else elif fi do done while until esac
 * coproc}) are dropped where a command name would stand; {@code for select case function} lines are
 * skipped up to the next operator. Redirection targets are not words; {@code <<} and {@code <<-}
 * bodies are read after the next newline.
 */
final class ShellParser {

    private final String s;
    private final int end;
    private final List<SimpleCommand> out;
    private final List<Heredoc> pendingHeredocs = new ArrayList<>();
    private int pos;
    private boolean truncated;

    private ShellParser(String s, List<SimpleCommand> out) {
        this.s = s;
        this.end = s.length();
        this.out = out;
    }

    static ShellScript parse(String source) {
        List<SimpleCommand> out = new ArrayList<>();
        ShellParser p = new ShellParser(source, out);
        p.list(false, 0);
        return new ShellScript(out, !p.truncated);
    }

    /** Parses commands up to the end, or in a substitution up to its unmatched {@code )}. */
    private void list(boolean substitution, int depth) {
        Builder b = new Builder();
        int parens = 0;
        while (pos < end) {
            char c = s.charAt(pos);
            char next = pos + 1 < end ? s.charAt(pos + 1) : 0;
            if (c == ' ' || c == '\t' || c == '\r') {
                pos++;
            } else if (c == '\\' && next == '\n') {
                pos += 2;
            } else if (c == '#') {
                while (pos < end && s.charAt(pos) != '\n') {
                    pos++;
                }
            } else if (c == '\n') {
                finish(b, false);
                pos++;
                readHeredocBodies(depth);
            } else if (c == ';') {
                finish(b, false);
                while (pos < end && (s.charAt(pos) == ';' || s.charAt(pos) == '&')) {
                    pos++;
                }
            } else if (c == '&' && next == '>') {
                redirection(b, depth);
            } else if (c == '&') {
                finish(b, false);
                pos += next == '&' ? 2 : 1;
            } else if (c == '|') {
                finish(b, next != '|');
                pos += next == '|' || next == '&' ? 2 : 1;
            } else if (c == '(') {
                finish(b, false);
                parens++;
                pos++;
            } else if (c == ')') {
                finish(b, false);
                pos++;
                if (parens == 0 && substitution) {
                    return;
                }
                parens = Math.max(0, parens - 1);
            } else if ((c == '<' || c == '>') && next != '(') {
                redirection(b, depth);
            } else if (c >= '0' && c <= '9' && fdRedirection()) {
                redirection(b, depth);
            } else {
                b.add(word(depth));
            }
        }
        finish(b, false);
    }

    /** Whether digits at {@code pos} are a file descriptor number before a redirection ({@code 2>}). */
    private boolean fdRedirection() {
        int j = pos;
        while (j < end && s.charAt(j) >= '0' && s.charAt(j) <= '9') {
            j++;
        }
        if (j < end && (s.charAt(j) == '<' || s.charAt(j) == '>') && !(j + 1 < end && s.charAt(j + 1) == '(')) {
            pos = j;
            return true;
        }
        return false;
    }

    private void finish(Builder b, boolean nextPiped) {
        if (!b.words.isEmpty() || !b.assignments.isEmpty()) {
            SimpleCommand command = new SimpleCommand(b.assignments, b.words, b.piped);
            out.add(command);
            for (Heredoc h : b.heredocs) {
                h.target = command;
            }
            if (b.hereStrings != null) {
                command.appendStdin(b.hereStrings.toString());
            }
        }
        b.reset(nextPiped);
    }

    /** One redirection at {@code pos}: operator, then its target word, which is no argument. */
    private void redirection(Builder b, int depth) {
        boolean heredoc = false;
        boolean stripTabs = false;
        boolean hereString = false;
        if (s.startsWith("<<<", pos)) {
            hereString = true;
            pos += 3;
        } else if (s.startsWith("<<-", pos)) {
            heredoc = true;
            stripTabs = true;
            pos += 3;
        } else if (s.startsWith("<<", pos)) {
            heredoc = true;
            pos += 2;
        } else if (s.startsWith("&>>", pos)) {
            pos += 3;
        } else {
            pos++;
            if (pos < end && "<>&|".indexOf(s.charAt(pos)) >= 0) {
                pos++;
            }
        }
        while (pos < end && (s.charAt(pos) == ' ' || s.charAt(pos) == '\t')) {
            pos++;
        }
        if (pos >= end || isOperator(s.charAt(pos)) && !startsProcessSubstitution()) {
            return;
        }
        ShellWord target = word(depth);
        if (heredoc) {
            Heredoc h = new Heredoc(target.text(), stripTabs, target.quoted());
            pendingHeredocs.add(h);
            b.heredocs.add(h);
        } else if (hereString) {
            if (b.hereStrings == null) {
                b.hereStrings = new StringBuilder();
            }
            b.hereStrings.append(target.text()).append('\n');
        }
    }

    private boolean startsProcessSubstitution() {
        char c = s.charAt(pos);
        return (c == '<' || c == '>') && pos + 1 < end && s.charAt(pos + 1) == '(';
    }

    private static boolean isOperator(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ';' || c == '&' || c == '|'
                || c == '(' || c == ')' || c == '<' || c == '>';
    }

    /** Reads the bodies of the here-documents opened on the line that just ended. */
    private void readHeredocBodies(int depth) {
        for (Heredoc h : pendingHeredocs) {
            StringBuilder body = new StringBuilder();
            while (pos < end) {
                int lineEnd = s.indexOf('\n', pos);
                if (lineEnd < 0) {
                    lineEnd = end;
                }
                int lineStart = pos;
                if (h.stripTabs) {
                    while (lineStart < lineEnd && s.charAt(lineStart) == '\t') {
                        lineStart++;
                    }
                }
                pos = Math.min(end, lineEnd + 1);
                if (lineEnd - lineStart == h.delimiter.length() && s.startsWith(h.delimiter, lineStart)) {
                    break;
                }
                body.append(s, lineStart, lineEnd).append('\n');
            }
            String text = body.toString();
            if (!h.quotedDelimiter) {
                ShellParser inner = new ShellParser(text, out);
                inner.expansionsOnly(depth + 1);
                truncated |= inner.truncated;
            }
            if (h.target != null) {
                h.target.appendStdin(text);
            }
        }
        pendingHeredocs.clear();
    }

    /** Parses only the substitutions of an unquoted here-document body. */
    private void expansionsOnly(int depth) {
        Word scratch = new Word();
        while (pos < end) {
            char c = s.charAt(pos);
            if (c == '\\') {
                pos += 2;
            } else if (c == '$') {
                dollar(scratch, depth, true);
            } else if (c == '`') {
                backtick(scratch, depth);
            } else {
                pos++;
            }
        }
    }

    private ShellWord word(int depth) {
        Word w = new Word();
        boolean brace = false;
        loop:
        while (pos < end) {
            char c = s.charAt(pos);
            switch (c) {
                case ' ': case '\t': case '\r': case '\n': case ';': case '&': case '|': case '(': case ')':
                    break loop;
                case '<': case '>':
                    if (!startsProcessSubstitution()) {
                        break loop;
                    }
                    pos += 2;
                    substitution(depth);
                    w.markDynamic();
                    break;
                case '\'':
                    w.quoted = true;
                    int close = s.indexOf('\'', pos + 1);
                    int stop = close < 0 ? end : close;
                    w.text.append(s, pos + 1, stop);
                    pos = close < 0 ? end : close + 1;
                    break;
                case '"':
                    w.quoted = true;
                    pos++;
                    doubleQuoted(w, depth);
                    break;
                case '\\':
                    w.quoted = true;
                    if (pos + 1 < end && s.charAt(pos + 1) != '\n') {
                        w.text.append(s.charAt(pos + 1));
                    }
                    pos += 2;
                    break;
                case '$':
                    dollar(w, depth, false);
                    break;
                case '`':
                    backtick(w, depth);
                    break;
                case '*': case '?': case '[':
                    w.pattern = true;
                    w.text.append(c);
                    pos++;
                    break;
                case '{': case '}':
                    brace = true;
                    w.text.append(c);
                    pos++;
                    break;
                default:
                    w.text.append(c);
                    pos++;
            }
        }
        pos = Math.min(pos, end);
        String text = w.text.toString();
        boolean braceExpansion = brace && (text.indexOf(',') >= 0 || text.contains(".."));
        return new ShellWord(text, w.dynamic, w.dynamic ? w.prefix : text.length(), w.pattern || braceExpansion, w.quoted);
    }

    /** The inside of {@code "…"}, {@code pos} just past the opening quote. */
    private void doubleQuoted(Word w, int depth) {
        while (pos < end) {
            char c = s.charAt(pos);
            if (c == '"') {
                pos++;
                return;
            }
            if (c == '\\' && pos + 1 < end) {
                char n = s.charAt(pos + 1);
                if (n == '$' || n == '`' || n == '"' || n == '\\') {
                    w.text.append(n);
                } else if (n != '\n') {
                    w.text.append(c).append(n);
                }
                pos += 2;
            } else if (c == '$') {
                dollar(w, depth, true);
            } else if (c == '`') {
                backtick(w, depth);
            } else {
                w.text.append(c);
                pos++;
            }
        }
    }

    /** An expansion or quote starting with {@code $} at {@code pos}. */
    private void dollar(Word w, int depth, boolean inDouble) {
        char n = pos + 1 < end ? s.charAt(pos + 1) : 0;
        if (n == '\'' && !inDouble) {
            w.quoted = true;
            pos += 2;
            ansiC(w);
        } else if (n == '"' && !inDouble) {
            w.quoted = true;
            pos += 2;
            doubleQuoted(w, depth);
        } else if (n == '(') {
            pos += 2;
            substitution(depth);
            w.markDynamic();
        } else if (n == '{') {
            pos += 2;
            parameter(depth);
            w.markDynamic();
        } else if (n == '_' || (n >= 'a' && n <= 'z') || (n >= 'A' && n <= 'Z')) {
            pos += 2;
            while (pos < end && isNameChar(s.charAt(pos))) {
                pos++;
            }
            w.markDynamic();
        } else if ((n >= '0' && n <= '9') || (n != 0 && "@*#?$!-".indexOf(n) >= 0)) {
            pos += 2;
            w.markDynamic();
        } else {
            w.text.append('$');
            pos++;
        }
    }

    /** The commands of {@code $(…)} or {@code <(…)}, {@code pos} just past the parenthesis. */
    private void substitution(int depth) {
        if (depth >= ShellScript.MAX_NESTING) {
            truncated = true;
            pos = end;
            return;
        }
        list(true, depth + 1);
    }

    /** The inside of {@code ${…}}, {@code pos} just past the brace; nested expansions are parsed. */
    private void parameter(int depth) {
        if (depth >= ShellScript.MAX_NESTING) {
            truncated = true;
            pos = end;
            return;
        }
        Word scratch = new Word();
        while (pos < end) {
            char c = s.charAt(pos);
            if (c == '}') {
                pos++;
                return;
            } else if (c == '\\') {
                pos += 2;
            } else if (c == '\'') {
                int close = s.indexOf('\'', pos + 1);
                pos = close < 0 ? end : close + 1;
            } else if (c == '"') {
                pos++;
                doubleQuoted(scratch, depth + 1);
            } else if (c == '$') {
                dollar(scratch, depth + 1, true);
            } else if (c == '`') {
                backtick(scratch, depth + 1);
            } else {
                pos++;
            }
        }
    }

    /** A backtick substitution at {@code pos}: its body unescaped and parsed as a script of its own. */
    private void backtick(Word w, int depth) {
        w.markDynamic();
        pos++;
        StringBuilder body = new StringBuilder();
        while (pos < end) {
            char c = s.charAt(pos);
            if (c == '\\' && pos + 1 < end && "`\\$".indexOf(s.charAt(pos + 1)) >= 0) {
                body.append(s.charAt(pos + 1));
                pos += 2;
            } else if (c == '`') {
                pos++;
                break;
            } else {
                body.append(c);
                pos++;
            }
        }
        if (depth >= ShellScript.MAX_NESTING) {
            truncated = true;
            return;
        }
        ShellParser inner = new ShellParser(body.toString(), out);
        inner.list(false, depth + 1);
        truncated |= inner.truncated;
    }

    /** The inside of {@code $'…'}, {@code pos} just past the quote: ANSI-C escapes decoded. */
    private void ansiC(Word w) {
        while (pos < end) {
            char c = s.charAt(pos++);
            if (c == '\'') {
                return;
            }
            if (c != '\\' || pos >= end) {
                w.text.append(c);
                continue;
            }
            char e = s.charAt(pos++);
            switch (e) {
                case 'a': w.text.append('\u0007'); break;
                case 'b': w.text.append('\b'); break;
                case 'e': case 'E': w.text.append('\u001b'); break;
                case 'f': w.text.append('\f'); break;
                case 'n': w.text.append('\n'); break;
                case 'r': w.text.append('\r'); break;
                case 't': w.text.append('\t'); break;
                case 'v': w.text.append('\u000b'); break;
                case '\\': case '\'': case '"': case '?': w.text.append(e); break;
                case 'c':
                    if (pos < end) {
                        w.text.append((char) (s.charAt(pos++) & 0x1f));
                    }
                    break;
                case 'x': appendCode(w, e, 16, 2); break;
                case 'u': appendCode(w, e, 16, 4); break;
                case 'U': appendCode(w, e, 16, 8); break;
                default:
                    if (e >= '0' && e <= '7') {
                        pos--;
                        appendCode(w, e, 8, 3);
                    } else {
                        w.text.append('\\').append(e);
                    }
            }
        }
    }

    /**
     * Up to {@code maxDigits} digits in {@code radix} at {@code pos}, appended as one code point; with
     * no digit, the escape stays as written.
     */
    private void appendCode(Word w, char escape, int radix, int maxDigits) {
        int value = 0;
        int digits = 0;
        while (digits < maxDigits && pos < end && Character.digit(s.charAt(pos), radix) >= 0) {
            value = value * radix + Character.digit(s.charAt(pos), radix);
            pos++;
            digits++;
        }
        if (digits == 0) {
            w.text.append('\\').append(escape);
        } else if (radix == 8) {
            w.text.append((char) (value & 0xff));
        } else if (Character.isValidCodePoint(value)) {
            w.text.appendCodePoint(value);
        }
    }

    private static boolean isNameChar(char c) {
        return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }

    /** Whether {@code text} is {@code NAME=…} or {@code NAME+=…}. */
    static boolean isAssignment(String text) {
        int eq = text.indexOf('=');
        int nameEnd = eq > 0 && text.charAt(eq - 1) == '+' ? eq - 1 : eq;
        if (nameEnd <= 0) {
            return false;
        }
        char first = text.charAt(0);
        if (first >= '0' && first <= '9') {
            return false;
        }
        for (int i = 0; i < nameEnd; i++) {
            if (!isNameChar(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** A word being read. */
    private static final class Word {
        final StringBuilder text = new StringBuilder();
        boolean dynamic;
        /** The length of {@link #text} when the first expansion was met. */
        int prefix;
        boolean pattern;
        boolean quoted;

        void markDynamic() {
            if (!dynamic) {
                prefix = text.length();
            }
            dynamic = true;
        }
    }

    /** A here-document waiting for its body. */
    private static final class Heredoc {
        final String delimiter;
        final boolean stripTabs;
        final boolean quotedDelimiter;
        SimpleCommand target;

        Heredoc(String delimiter, boolean stripTabs, boolean quotedDelimiter) {
            this.delimiter = delimiter;
            this.stripTabs = stripTabs;
            this.quotedDelimiter = quotedDelimiter;
        }
    }

    /** The simple command being read. */
    private static final class Builder {
        List<ShellWord> assignments = new ArrayList<>();
        List<ShellWord> words = new ArrayList<>();
        List<Heredoc> heredocs = new ArrayList<>();
        StringBuilder hereStrings;
        boolean piped;
        boolean skipping;

        void add(ShellWord w) {
            if (words.isEmpty() && !skipping && !w.quoted() && w.literal()) {
                switch (w.text()) {
                    case "{": case "}": case "!": case "if": case "then": case "else": case "elif": case "fi":
                    case "do": case "done": case "while": case "until": case "esac": case "coproc":
                        return;
                    case "for": case "select": case "case": case "function":
                        skipping = true;
                        return;
                    default:
                        break;
                }
            }
            if (skipping) {
                return;
            }
            if (words.isEmpty() && isAssignment(w.text())) {
                assignments.add(w);
            } else {
                words.add(w);
            }
        }

        void reset(boolean nextPiped) {
            if (!words.isEmpty() || !assignments.isEmpty()) {
                assignments = new ArrayList<>();
                words = new ArrayList<>();
            }
            if (!heredocs.isEmpty()) {
                heredocs = new ArrayList<>();
            }
            hereStrings = null;
            piped = nextPiped;
            skipping = false;
        }
    }
}
