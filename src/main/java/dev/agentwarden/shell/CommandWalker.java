package dev.agentwarden.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * Follows a shell command line to each program it runs, and hands each to a {@link Visitor}.
 *
 * <p>The line is split like a shell does ({@link ShellScript}); every simple command, and every
 * script it hands on ({@code sh -c}, {@code eval}, {@code su -c}, {@code watch}, {@code trap},
 * {@code env -S}, here-documents fed to a shell, shell aliases defined earlier in the line, and
 * scripts the visitor finds and passes back through {@link #walk}), is followed through the
 * wrappers that run another command ({@code env}, {@code sudo}, {@code doas}, {@code exec},
 * {@code command}, {@code time}, {@code nohup}, {@code xargs}, {@code find -exec}) to its program.
 * Shells and interpreters ({@link ProgramNames}) are read here: a shell's script is walked, an
 * interpreter's program is given to {@link Visitor#foreignProgram}. Commands that only print
 * ({@link ProgramNames#printsOnly}) run nothing. Every other program is offered to
 * {@link Visitor#program}; one the visitor does not claim has its arguments searched for a program
 * the visitor claims, or a shell with {@code -c}.
 *
 * <p>A command name computed at run time is offered to the visitor with {@code computed} set,
 * read as a shell with {@code -c}, and searched like any other command, while
 * {@link #readingComputedName} is true. What only running the command would tell is reported
 * through {@link Visitor#unknown} and {@link Visitor#unreadScript}; limits passed (scripts nested
 * deeper than {@link #MAX_SCRIPT_DEPTH}, substitutions deeper than {@link ShellScript#MAX_NESTING},
 * more than {@link #PARSE_BUDGET_CHARS} of script in all) through {@link Visitor#tooComplex}.
 */
public final class CommandWalker {

    /** The longest command line a visitor should walk; longer ones are judged by their text. */
    public static final int MAX_COMMAND_CHARS = 256 * 1024;

    /** The deepest chain of scripts handed to shells ({@code sh -c "sh -c '…'"}). */
    public static final int MAX_SCRIPT_DEPTH = 8;

    /** All script text parsed for one walk, nested scripts included. */
    public static final int PARSE_BUDGET_CHARS = 2 * MAX_COMMAND_CHARS;

    /** The most words one word's brace expansion may make before it counts as unknown. */
    public static final int MAX_BRACE_WORDS = 64;

    /** What a walk reports to: the programs found, and what it could not read. */
    public interface Visitor {

        /** A simple command about to be followed, its words brace-expanded; called at every depth. */
        void command(SimpleCommand c, List<ShellWord> words, int depth);

        /**
         * The program at {@code words[at]}, its arguments up to {@code to}; {@code env} holds the
         * assignments it runs with, {@code viaXargs} whether xargs appends arguments to it, and
         * {@code computed} whether its name is known only at run time. Returns whether the visitor
         * claims it: an unclaimed program's arguments are searched for another ({@code computed}
         * names are searched regardless).
         */
        boolean program(SimpleCommand c, List<ShellWord> words, int at, int to, List<ShellWord> env, int depth,
                        boolean viaXargs, boolean computed);

        /** A program in another language handed to {@code interpreter}; {@code literal} unless computed at run time. */
        void foreignProgram(String interpreter, String text, boolean literal);

        /** Variables assigned or exported for the rest of the script, in {@code words[from..]}. */
        void exported(List<ShellWord> words, int from);

        /** A script is about to run with {@code env}; returns what {@link #leaveScript} restores. */
        Object enterScript(List<ShellWord> env);

        void leaveScript(Object saved);

        /** A part whose value only running the command would tell. */
        void unknown(String why);

        /** A script or program that a shell or interpreter reads from a pipe. */
        void unreadScript(String why);

        /** A limit passed while walking {@code text}. */
        void tooComplex(String why, String text);

        /** Whether the walk may stop: the visitor has its answer. */
        boolean finished();
    }

    private final Visitor visitor;
    /** Shell aliases defined so far: name, expansion, name, expansion, … */
    private List<String> shellAliases;
    /** Above 0 while reading a computed command name. */
    private int computedName;
    private int budget = PARSE_BUDGET_CHARS;

    public CommandWalker(Visitor visitor) {
        this.visitor = visitor;
    }

    /** Whether the walk is reading a command name computed at run time as each program it may be. */
    public boolean readingComputedName() {
        return computedName > 0;
    }

    /** Walks {@code text} as a script at {@code depth} (0 for the command line itself). */
    public void walk(String text, int depth) {
        if (depth > MAX_SCRIPT_DEPTH) {
            visitor.tooComplex("scripts handed to shells nest deeper than " + MAX_SCRIPT_DEPTH, text);
            return;
        }
        budget -= text.length();
        if (budget < 0) {
            visitor.tooComplex("its nested scripts exceed " + PARSE_BUDGET_CHARS + " characters", text);
            return;
        }
        ShellScript parsed = ShellScript.parse(text);
        if (!parsed.complete()) {
            visitor.tooComplex("substitutions nest deeper than " + ShellScript.MAX_NESTING, text);
        }
        for (SimpleCommand c : parsed.commands()) {
            List<ShellWord> words = c.words().isEmpty() ? c.words() : braceExpanded(c.words());
            visitor.command(c, words, depth);
            if (visitor.finished()) {
                return;
            }
            if (words.isEmpty()) {
                visitor.exported(c.assignments(), 0);
            } else {
                follow(c, words, 0, words.size(), new ArrayList<>(c.assignments()), depth, false);
            }
            if (visitor.finished()) {
                return;
            }
        }
    }

    /** A script word handed on: walked one level deeper, its value unknown unless literal. */
    public void walkWord(ShellWord scriptWord, List<ShellWord> env, int depth, String what) {
        if (!scriptWord.literal()) {
            visitor.unknown(what + " computed at run time");
        }
        walkWith(scriptWord.text(), env, depth);
    }

    /** Walks {@code text} one level deeper, run with the assignments {@code env}. */
    public void walkWith(String text, List<ShellWord> env, int depth) {
        Object saved = visitor.enterScript(env);
        try {
            walk(text, depth + 1);
        } finally {
            visitor.leaveScript(saved);
        }
    }

    /**
     * {@code words} with each brace expansion made as bash makes it ({@code -{n,a}} is {@code -n -a});
     * a word that would make more than {@link #MAX_BRACE_WORDS} words stays one unknown word.
     */
    private static List<ShellWord> braceExpanded(List<ShellWord> words) {
        List<ShellWord> out = null;
        for (int k = 0; k < words.size(); k++) {
            List<ShellWord> expanded = words.get(k).braceExpanded(MAX_BRACE_WORDS);
            if (expanded != null && out == null) {
                out = new ArrayList<>(words.subList(0, k));
            }
            if (out != null) {
                if (expanded != null && out.size() + expanded.size() <= MAX_BRACE_WORDS * 4) {
                    out.addAll(expanded);
                } else {
                    out.add(words.get(k));
                }
            }
        }
        return out == null ? words : out;
    }

    /**
     * Follows the command at {@code w[i]} (words up to {@code to}) through wrappers to what it runs.
     * {@code env} holds the variable assignments it runs with; {@code viaXargs}, whether xargs
     * appends arguments to it.
     */
    public void follow(SimpleCommand c, List<ShellWord> w, int i, int to, List<ShellWord> env, int depth,
                       boolean viaXargs) {
        while (i < to) {
            ShellWord name = w.get(i);
            if (!name.literal()) {
                computedName(c, w, i, to, env, depth, viaXargs);
                return;
            }
            String base = ProgramNames.basename(name.text());
            String expansion = aliasExpansion(shellAliases, name.text());
            if (expansion != null) {
                walkWith(expansion + quotedArguments(w, i + 1, to), env, depth);
                return;
            }
            switch (base) {
                case "time": case "nohup": case "builtin": case "noglob": case "nocorrect": case "busybox":
                    i = skipDashWords(w, i + 1, to);
                    break;
                case "command":
                    for (i = i + 1; i < to && w.get(i).text().startsWith("-"); i++) {
                        if (w.get(i).text().indexOf('v') >= 0 || w.get(i).text().indexOf('V') >= 0) {
                            return;
                        }
                    }
                    break;
                case "exec":
                    for (i = i + 1; i < to && w.get(i).text().startsWith("-"); i++) {
                        if (w.get(i).text().equals("-a")) {
                            i++;
                        }
                    }
                    break;
                case "env":
                    i = envWrapper(w, i + 1, to, env, depth);
                    break;
                case "sudo": case "doas":
                    i = sudoWrapper(w, i + 1, to, env);
                    break;
                case "xargs":
                    i = xargsOptions(w, i + 1, to);
                    viaXargs = true;
                    break;
                case "find":
                    findExec(c, w, i + 1, to, env, depth);
                    return;
                case "eval":
                    eval(w, i + 1, to, env, depth);
                    return;
                case "trap":
                    if (i + 2 < to && !w.get(i + 1).text().startsWith("-")) {
                        walkWord(w.get(i + 1), env, depth, "a trap command");
                    }
                    return;
                case "watch":
                    watch(c, w, i + 1, to, env, depth);
                    return;
                case "su":
                    su(w, i + 1, to, env, depth);
                    return;
                case "alias":
                    for (int k = i + 1; k < to; k++) {
                        String t = w.get(k).text();
                        int eq = t.indexOf('=');
                        if (eq > 0) {
                            if (shellAliases == null) {
                                shellAliases = new ArrayList<>();
                            }
                            shellAliases.add(t.substring(0, eq));
                            shellAliases.add(t.substring(eq + 1));
                            walk(t.substring(eq + 1), depth + 1);
                        }
                    }
                    return;
                case "export": case "declare": case "typeset": case "local": case "readonly":
                    visitor.exported(w, i + 1);
                    return;
                default:
                    if (ProgramNames.printsOnly(base)) {
                        return;
                    }
                    if (ProgramNames.isShell(base)) {
                        shell(c, w, i, to, env, depth, viaXargs);
                    } else if (ProgramNames.isInterpreter(base)) {
                        interpreter(c, w, i, to, base);
                    } else if (!visitor.program(c, w, i, to, env, depth, viaXargs, false)) {
                        anyCommand(c, w, i + 1, to, env, depth, viaXargs);
                    }
                    return;
            }
        }
    }

    /** A command of unknown kind: follows a program the visitor claims, or {@code sh -c}, among its arguments. */
    private void anyCommand(SimpleCommand c, List<ShellWord> w, int from, int to, List<ShellWord> env, int depth,
                            boolean viaXargs) {
        for (int j = from; j < to; j++) {
            ShellWord a = w.get(j);
            if (!a.literal()) {
                continue;
            }
            if (ShellScript.isAssignment(a.text())) {
                env.add(a);
            } else if (visitor.program(c, w, j, to, env, depth, viaXargs, false)) {
                return;
            } else if (ProgramNames.isShell(ProgramNames.basename(a.text())) && j + 1 < to
                    && isShortCluster(w.get(j + 1).text(), 'c')) {
                shell(c, w, j, to, env, depth, viaXargs);
                return;
            }
        }
    }

    /** A command name known only at run time: offered to the visitor, read as a shell, and searched. */
    private void computedName(SimpleCommand c, List<ShellWord> w, int i, int to, List<ShellWord> env, int depth,
                              boolean viaXargs) {
        computedName++;
        try {
            visitor.program(c, w, i, to, env, depth, viaXargs, true);
            if (i + 2 < to && isShortCluster(w.get(i + 1).text(), 'c')) {
                walkWord(w.get(i + 2), env, depth, "a shell script");
            }
            anyCommand(c, w, i + 1, to, env, depth, viaXargs);
        } finally {
            computedName--;
        }
    }

    /** The index of the first word from {@code i} that is not an option ({@code -x}, {@code --long}). */
    public static int skipDashWords(List<ShellWord> w, int i, int to) {
        while (i < to && w.get(i).text().startsWith("-") && w.get(i).text().length() > 1) {
            i++;
        }
        return i;
    }

    /** {@code env [-i] [-u NAME] [-C DIR] [-S STRING] [NAME=VALUE]... COMMAND}: the command's index. */
    private int envWrapper(List<ShellWord> w, int i, int to, List<ShellWord> env, int depth) {
        while (i < to) {
            String t = w.get(i).text();
            if (t.equals("--")) {
                return i + 1;
            } else if (ShellScript.isAssignment(t)) {
                env.add(w.get(i));
            } else if (t.equals("-S") || t.equals("--split-string") || t.startsWith("--split-string=")
                    || (t.startsWith("-S") && !t.startsWith("--"))) {
                String split = t.startsWith("--split-string=") ? t.substring(15)
                        : t.length() > 2 && !t.startsWith("--") ? t.substring(2)
                        : i + 1 < to ? w.get(++i).text() : "";
                StringBuilder rest = new StringBuilder(split);
                for (int k = i + 1; k < to; k++) {
                    rest.append(' ').append(w.get(k).text());
                }
                walkWith(rest.toString(), env, depth);
                return to;
            } else if (t.equals("-u") || t.equals("--unset") || t.equals("-C") || t.equals("--chdir")) {
                i++;
            } else if (!t.startsWith("-") || t.length() == 1) {
                return i;
            }
            i++;
        }
        return i;
    }

    /** {@code sudo [options] [NAME=VALUE]... COMMAND}: the command's index. */
    private static int sudoWrapper(List<ShellWord> w, int i, int to, List<ShellWord> env) {
        while (i < to) {
            String t = w.get(i).text();
            if (t.equals("--")) {
                return i + 1;
            } else if (ShellScript.isAssignment(t)) {
                env.add(w.get(i));
            } else if (t.length() == 2 && t.charAt(0) == '-' && "CDghpRrTtUu".indexOf(t.charAt(1)) >= 0) {
                i++;
            } else if (!t.startsWith("-")) {
                return i;
            }
            i++;
        }
        return i;
    }

    /** {@code xargs [options] COMMAND}: the command's index. */
    private static int xargsOptions(List<ShellWord> w, int i, int to) {
        while (i < to) {
            String t = w.get(i).text();
            if (t.equals("--")) {
                return i + 1;
            }
            if (!t.startsWith("-") || t.length() == 1) {
                return i;
            }
            if (t.length() == 2 && "adEILnPs".indexOf(t.charAt(1)) >= 0) {
                i++;
            } else if (t.startsWith("--") && t.indexOf('=') < 0 && (t.equals("--arg-file") || t.equals("--delimiter")
                    || t.equals("--max-lines") || t.equals("--max-args") || t.equals("--max-procs")
                    || t.equals("--max-chars") || t.equals("--process-slot-var"))) {
                i++;
            }
            i++;
        }
        return i;
    }

    /** {@code find … -exec COMMAND… ;} (also {@code -execdir}, {@code -ok}, {@code -okdir}, {@code +}). */
    private void findExec(SimpleCommand c, List<ShellWord> w, int i, int to, List<ShellWord> env, int depth) {
        while (i < to) {
            String t = w.get(i).text();
            if (t.equals("-exec") || t.equals("-execdir") || t.equals("-ok") || t.equals("-okdir")) {
                int e = i + 1;
                while (e < to && !w.get(e).text().equals(";") && !w.get(e).text().equals("+")) {
                    e++;
                }
                follow(c, w, i + 1, e, new ArrayList<>(env), depth, false);
                i = e;
            }
            i++;
        }
    }

    private void eval(List<ShellWord> w, int i, int to, List<ShellWord> env, int depth) {
        StringBuilder text = new StringBuilder();
        for (int k = i; k < to; k++) {
            if (!w.get(k).literal()) {
                visitor.unknown("eval of text computed at run time");
            }
            text.append(k > i ? " " : "").append(w.get(k).text());
        }
        walkWith(text.toString(), env, depth);
    }

    /** {@code watch [options] COMMAND…}: the words joined are a script, or with {@code -x} a command. */
    private void watch(SimpleCommand c, List<ShellWord> w, int i, int to, List<ShellWord> env, int depth) {
        boolean exec = false;
        while (i < to && w.get(i).text().startsWith("-")) {
            String t = w.get(i).text();
            exec |= t.equals("-x") || t.equals("--exec");
            i += t.equals("-n") || t.equals("--interval") || t.equals("-q") ? 2 : 1;
        }
        if (exec) {
            follow(c, w, i, to, env, depth, false);
            return;
        }
        StringBuilder text = new StringBuilder();
        for (int k = i; k < to; k++) {
            text.append(k > i ? " " : "").append(w.get(k).text());
        }
        walkWith(text.toString(), env, depth);
    }

    /** {@code su [options] [-c COMMAND] [user]}: the command is a script. */
    private void su(List<ShellWord> w, int i, int to, List<ShellWord> env, int depth) {
        for (int k = i; k < to; k++) {
            String t = w.get(k).text();
            if ((t.equals("-c") || t.equals("--command") || t.equals("--session-command")) && k + 1 < to) {
                walkWord(w.get(k + 1), env, depth, "an su command");
            } else if (t.startsWith("--command=")) {
                walkWith(t.substring(10), env, depth);
            }
        }
    }

    /** A shell: {@code sh -c SCRIPT [args]}, {@code sh FILE} (unknown), or a script on standard input. */
    private void shell(SimpleCommand c, List<ShellWord> w, int i, int to, List<ShellWord> env, int depth,
                       boolean viaXargs) {
        boolean dashC = false;
        int j = i + 1;
        while (j < to) {
            String t = w.get(j).text();
            if (t.equals("--") || t.equals("-")) {
                j++;
                break;
            }
            if (t.startsWith("--")) {
                j += t.equals("--rcfile") || t.equals("--init-file") ? 2 : 1;
                continue;
            }
            if (t.length() < 2 || (t.charAt(0) != '-' && t.charAt(0) != '+')) {
                break;
            }
            boolean takesArgument = false;
            for (int k = 1; k < t.length(); k++) {
                char ch = t.charAt(k);
                dashC |= ch == 'c';
                takesArgument |= ch == 'o' || ch == 'O';
            }
            j += takesArgument ? 2 : 1;
        }
        if (dashC) {
            if (j < to) {
                if (viaXargs) {
                    visitor.unknown("xargs fills in the shell script from its input");
                }
                walkWord(w.get(j), env, depth, "a shell script");
                anyCommand(c, w, j + 1, to, env, depth, viaXargs);
            }
        } else if (j >= to) {
            if (c.stdin() != null) {
                walkWith(c.stdin(), env, depth);
            } else if (c.pipedInput()) {
                visitor.unreadScript("a shell reads its script from a pipe");
            }
        }
    }

    /**
     * An interpreter of another language ({@code python3 -c}, {@code perl -e}, {@code node -e}, …):
     * its program, given inline or as standard input, goes to {@link Visitor#foreignProgram}.
     */
    private void interpreter(SimpleCommand c, List<ShellWord> w, int i, int to, String base) {
        boolean inline = false;
        boolean scriptFile = false;
        for (int j = i + 1; j < to && !inline && !scriptFile; j++) {
            ShellWord a = w.get(j);
            String t = a.text();
            if (ProgramNames.isProgramOption(t) || t.equals("-")) {
                inline = !t.equals("-");
                if (j + 1 < to && inline) {
                    visitor.foreignProgram(base, w.get(j + 1).text(), a.literal() && w.get(j + 1).literal());
                }
                scriptFile = !inline;
            } else if (t.length() > 1 && t.charAt(0) == '-' && t.charAt(1) != '-') {
                int at = ProgramNames.programLetter(t);
                if (at > 0) {
                    inline = true;
                    visitor.foreignProgram(base,
                            at + 1 < t.length() ? t.substring(at + 1) : j + 1 < to ? w.get(j + 1).text() : "",
                            a.literal());
                }
            } else if (!t.startsWith("-")) {
                scriptFile = true;
            }
        }
        if (!inline && !scriptFile || (scriptFile && to > i + 1 && w.get(to - 1).text().equals("-"))) {
            if (c.stdin() != null) {
                visitor.foreignProgram(base, c.stdin(), true);
            } else if (c.pipedInput()) {
                visitor.unreadScript("a " + base + " program read from a pipe");
            }
        }
    }

    /** The value of {@code name} in a list of name, value pairs, or {@code null}. */
    public static String aliasExpansion(List<String> aliases, String name) {
        if (aliases != null) {
            for (int k = aliases.size() - 2; k >= 0; k -= 2) {
                if (aliases.get(k).equals(name)) {
                    return aliases.get(k + 1);
                }
            }
        }
        return null;
    }

    /** {@code w[from..to)} as shell text: each word single-quoted, each preceded by a space. */
    public String quotedArguments(List<ShellWord> w, int from, int to) {
        StringBuilder b = new StringBuilder();
        for (int k = from; k < to; k++) {
            if (!w.get(k).literal()) {
                visitor.unknown("an alias argument computed at run time");
            }
            b.append(" '");
            String t = w.get(k).text();
            for (int m = 0; m < t.length(); m++) {
                char ch = t.charAt(m);
                b.append(ch == '\'' ? "'\\''" : String.valueOf(ch));
            }
            b.append('\'');
        }
        return b.toString();
    }

    /** Whether {@code t} is a single-dash cluster of letters containing {@code letter} ({@code -lc}). */
    public static boolean isShortCluster(String t, char letter) {
        return t.length() > 1 && t.charAt(0) == '-' && t.charAt(1) != '-' && t.indexOf(letter) > 0;
    }
}
