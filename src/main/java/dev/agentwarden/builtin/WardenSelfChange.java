package dev.agentwarden.builtin;

import dev.agentwarden.shell.CommandWalker;
import dev.agentwarden.shell.ProgramNames;
import dev.agentwarden.shell.ShellWord;
import dev.agentwarden.shell.SimpleCommand;
import java.util.List;
import java.util.Locale;

/**
 * Finds, in a shell command line, a run of Warden that changes its own trust or hooks: every
 * subcommand that writes a trust record or hook settings ({@link #TRUST_WRITERS}: {@code trust},
 * {@code init}, {@code install}, {@code uninstall}, {@code train-archive}), by any path whose last
 * part is {@code warden} ({@code bin/warden}, {@code ./bin/warden}, {@code npx warden}),
 * {@code java … dev.agentwarden.Main} or {@code java -jar …warden….jar}, at any word of a command
 * (so through {@code env -u CLAUDECODE}, {@code sudo}, {@code nohup} and other wrappers). Host
 * markers in the environment play no part: an agent can unset them. Every script the command hands
 * on is read too, followed by {@link CommandWalker} ({@code sh -c}, {@code eval}, {@code su -c},
 * {@code find -exec}, {@code env -S}, shell aliases, here-documents), and so is any word after a
 * {@code -c}/{@code -e}/{@code -x}-like option; one that cannot be read (a computed program name or
 * script, a script piped into a shell, a program in another language) is refused when its text
 * names warden and one of those subcommands.
 *
 * <p>{@code warden trust --show}, {@code warden init --no-trust} and {@code --help} change no trust
 * and are allowed. Commands that only print or search text ({@link ProgramNames#printsOnly}) are
 * not read as running anything.
 */
final class WardenSelfChange implements CommandWalker.Visitor {

    /**
     * Warden's subcommands that write a trust record ({@code trust}, {@code init}, {@code install},
     * {@code train-archive}) or the hooks that run Warden ({@code install}, {@code uninstall}).
     */
    static final List<String> TRUST_WRITERS = List.of("trust", "init", "install", "uninstall", "train-archive");

    private final String lowerSource;
    private String reason;
    private final CommandWalker walker = new CommandWalker(this);

    private WardenSelfChange(String source) {
        this.lowerSource = source.toLowerCase(Locale.ROOT);
    }

    /** Why {@code command} would change Warden's trust or hooks, or {@code null} when it would not. */
    static String reasonFor(String command) {
        WardenSelfChange check = new WardenSelfChange(command);
        if (command.length() > CommandWalker.MAX_COMMAND_CHARS) {
            check.byText(command, "the command is too long to check");
        } else {
            check.walker.walk(command, 0);
        }
        return check.reason;
    }

    /**
     * Every word of a simple command, wherever the walker finds it: a warden program word, a
     * computed word before a protected subcommand, a script handed on, a script on standard input.
     */
    @Override
    public void command(SimpleCommand c, List<ShellWord> expanded, int depth) {
        List<ShellWord> w = c.words();
        if (w.isEmpty()) {
            return;
        }
        boolean onlyPrints = w.get(0).literal() && ProgramNames.printsOnly(basename(w.get(0).text()));
        for (int k = 0; k < w.size() && reason == null; k++) {
            ShellWord a = w.get(k);
            String t = a.text();
            if (!a.literal()) {
                if (k + 1 < w.size() && isProtectedSubcommand(w.get(k + 1).text()) && lowerSource.contains("warden")) {
                    refuse(quote(t) + "… " + w.get(k + 1).text() + " (a program name computed at run time, and the"
                            + " command mentions warden)");
                }
                continue;
            }
            if (!onlyPrints) {
                if (isWardenProgram(basename(t)) || t.equals("dev.agentwarden.Main")) {
                    subcommand(w, k + 1, w.size(), t);
                } else if (t.equals("-jar") && k + 1 < w.size() && isWardenJar(w.get(k + 1).text())) {
                    subcommand(w, k + 2, w.size(), "java -jar " + w.get(k + 1).text());
                    k++;
                }
            }
            if (reason == null && k > 0 && handsOnScript(w, k) && t.toLowerCase(Locale.ROOT).contains("warden")) {
                walker.walk(t, depth + 1);
                byText(t, "a program it hands to " + basename(w.get(0).text()));
            }
        }
        if (reason == null && c.stdin() != null && c.stdin().toLowerCase(Locale.ROOT).contains("warden")) {
            walker.walk(c.stdin(), depth + 1);
            byText(c.stdin(), "a script on its standard input");
        }
        if (reason == null && c.pipedInput() && w.get(0).literal()
                && ProgramNames.readsProgram(basename(w.get(0).text()))) {
            byText(lowerSource, "a script piped into " + quote(basename(w.get(0).text())));
        }
    }

    /** A program the walker reached: warden, {@code dev.agentwarden.Main} or {@code -jar} of a warden jar. */
    @Override
    public boolean program(SimpleCommand c, List<ShellWord> w, int at, int to, List<ShellWord> env, int depth,
                           boolean viaXargs, boolean computed) {
        ShellWord name = w.get(at);
        if (computed || !name.literal()) {
            return false;
        }
        String t = name.text();
        if (isWardenProgram(basename(t)) || t.equals("dev.agentwarden.Main")) {
            subcommand(w, at + 1, to, t);
            return true;
        }
        if (t.equals("-jar") && at + 1 < to && isWardenJar(w.get(at + 1).text())) {
            subcommand(w, at + 2, to, "java -jar " + w.get(at + 1).text());
            return true;
        }
        return false;
    }

    @Override
    public void foreignProgram(String interpreter, String text, boolean literal) {
        byText(text, "a program it hands to " + interpreter);
        if (!literal) {
            byText(lowerSource, "a " + interpreter + " program computed at run time");
        }
    }

    @Override
    public void unknown(String why) {
        byText(lowerSource, why);
    }

    @Override
    public void unreadScript(String why) {
        byText(lowerSource, why);
    }

    /** A limit passed: {@code text}, unread, is refused when it names warden at all. */
    @Override
    public void tooComplex(String why, String text) {
        if (reason == null && text.toLowerCase(Locale.ROOT).contains("warden")) {
            reason = ProtectWarden.PREFIX + "the command is too complex to check (" + why + ") and mentions warden; "
                    + ProtectWarden.ASK_USER;
        }
    }

    @Override
    public void exported(List<ShellWord> words, int from) {
    }

    @Override
    public Object enterScript(List<ShellWord> env) {
        return null;
    }

    @Override
    public void leaveScript(Object saved) {
    }

    @Override
    public boolean finished() {
        return reason != null;
    }

    /** Whether {@code w[k]} is a script another program runs: after {@code -c}/{@code -e}-like options, or under {@code eval}. */
    private static boolean handsOnScript(List<ShellWord> w, int k) {
        String first = basename(w.get(0).text());
        if (first.equals("eval") || first.equals("watch") || first.equals("trap")) {
            return true;
        }
        String prev = w.get(k - 1).text();
        if (prev.startsWith("--")) {
            return prev.equals("--command") || prev.equals("--eval") || prev.equals("--exec");
        }
        return prev.length() > 1 && prev.charAt(0) == '-'
                && (prev.indexOf('c') > 0 || prev.indexOf('e') > 0 || prev.indexOf('x') > 0);
    }

    /** {@code warden SUBCOMMAND …} from {@code w[from]} up to {@code w[to]}, its global options skipped. */
    private void subcommand(List<ShellWord> w, int from, int to, String program) {
        int k = from;
        while (k < to && w.get(k).literal() && w.get(k).text().startsWith("-")) {
            k++;
        }
        if (k >= to) {
            return;
        }
        ShellWord sub = w.get(k);
        if (!sub.literal()) {
            refuse(quote(program) + " with a subcommand computed at run time");
            return;
        }
        if (!isProtectedSubcommand(sub.text())) {
            return;
        }
        for (int m = k + 1; m < to; m++) {
            String t = w.get(m).text();
            if (t.equals("--help") || t.equals("-h") || (sub.text().equals("trust") && t.equals("--show"))
                    || (sub.text().equals("init") && t.equals("--no-trust"))) {
                return;
            }
        }
        refuse(quote(program) + " " + sub.text());
    }

    /** Refuses when {@code text} names warden and a protected subcommand. */
    private void byText(String text, String where) {
        String lower = text.toLowerCase(Locale.ROOT);
        if (reason == null && lower.contains("warden")
                && (lower.contains("trust") || lower.contains("install") || lower.contains("init"))) {
            reason = ProtectWarden.PREFIX + "the command is too indirect to check (" + where + ") and mentions warden"
                    + " trust, init or install; " + ProtectWarden.ASK_USER;
        }
    }

    private void refuse(String what) {
        if (reason == null) {
            reason = ProtectWarden.PREFIX + "the command runs " + what + "; " + ProtectWarden.ASK_USER;
        }
    }

    private static boolean isProtectedSubcommand(String t) {
        return TRUST_WRITERS.contains(t);
    }

    /** Warden's launcher as a program name: {@code warden}, or its package name {@code agent-warden} (npx). */
    private static boolean isWardenProgram(String base) {
        return base.equals("warden") || base.equals("agent-warden");
    }

    /** A jar whose file name names warden ({@code target/warden.jar}, {@code warden-0.1.0.jar}). */
    private static boolean isWardenJar(String path) {
        String base = basename(path).toLowerCase(Locale.ROOT);
        return base.endsWith(".jar") && base.contains("warden");
    }

    private static String basename(String path) {
        return ProgramNames.basename(path);
    }

    private static String quote(String text) {
        return HookBypass.quote(text);
    }
}
