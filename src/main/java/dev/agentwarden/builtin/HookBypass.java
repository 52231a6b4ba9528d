package dev.agentwarden.builtin;

import dev.agentwarden.shell.CommandWalker;
import dev.agentwarden.shell.ProgramNames;
import dev.agentwarden.shell.ShellScript;
import dev.agentwarden.shell.ShellWord;
import dev.agentwarden.shell.SimpleCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Finds, in a shell command line, a git invocation that would not run the repository's hooks, and
 * says why in one sentence.
 *
 * <p>{@link CommandWalker} follows the command line through wrappers and the scripts it hands on
 * to each program; this class claims {@code git} (and any command that has a literal {@code git}
 * word among its arguments), and hands back to the walker the scripts git runs itself
 * ({@code git rebase --exec}, {@code git -c alias.x=!…}, {@code git submodule foreach},
 * {@code git bisect run}). A git call skips hooks when:
 * <ul>
 *   <li>its subcommand (commit, merge, push, pull, rebase, am) ends its option parse with
 *       {@code --no-verify} in force, read by git's rules ({@link GitOptionTable}: unique prefixes,
 *       {@code --verify} / {@code --no-no-verify} undoing it, short clusters, values, {@code --});
 *       any other subcommand (an alias from a config file, perhaps) when a literal
 *       {@code --no-verify} precedes {@code --};</li>
 *   <li>{@code -c core.hooksPath=…}, {@code --config-env=core.hooksPath=…} or
 *       {@code -c include.path=…} overrides the hooks directory, or {@code git config} sets or
 *       unsets {@code core.hooksPath};</li>
 *   <li>its environment turns a hook manager off ({@code HUSKY=0}, {@code HUSKY_SKIP_HOOKS},
 *       {@code LEFTHOOK=0}, {@code LEFTHOOK_EXCLUDE}, {@code SKIP}, {@code OVERCOMMIT_DISABLE},
 *       {@code SKIP_SIMPLE_GIT_HOOKS}) or can set {@code core.hooksPath}
 *       ({@code GIT_CONFIG_PARAMETERS}, {@code GIT_CONFIG_KEY_n}, {@code GIT_CONFIG_GLOBAL} or
 *       {@code GIT_CONFIG_SYSTEM} other than {@code /dev/null}), by prefix, {@code env}, an
 *       enclosing {@code VAR=… sh -c}, or an earlier {@code export}.</li>
 * </ul>
 *
 * <p>What cannot be known without running the command is no finding by itself. A word built at
 * run time ({@code $x}, {@code $(…)}, a glob) where a git option may stand, a script read from a
 * pipe, or arguments {@code xargs} adds, refuse the command only when its text also mentions a
 * bypass ({@link #mentionedBypass}; for commit and am also a {@code -n}-like word). Limits passed
 * (scripts nested deeper than {@link #MAX_SCRIPT_DEPTH}, substitutions deeper than
 * {@link ShellScript#MAX_NESTING}, more than {@link CommandWalker#PARSE_BUDGET_CHARS} of nested script) refuse
 * it when its text mentions git. A command name computed at run time is read as git, and refused
 * when that reading skips hooks and the text says git. A command over {@link #MAX_COMMAND_CHARS}
 * is not parsed, and is refused when it mentions git and a bypass. Each such reason says the
 * command was too indirect, complex or long to check.
 */
final class HookBypass implements CommandWalker.Visitor {

    /** Longer commands are not parsed; see {@link #reasonFor}. */
    static final int MAX_COMMAND_CHARS = CommandWalker.MAX_COMMAND_CHARS;

    /** The deepest chain of scripts handed to shells ({@code sh -c "sh -c '…'"}). */
    static final int MAX_SCRIPT_DEPTH = CommandWalker.MAX_SCRIPT_DEPTH;

    private static final int MAX_QUOTED_CHARS = 60;

    /** The most words one word's brace expansion may make before it counts as unknown. */
    static final int MAX_BRACE_WORDS = CommandWalker.MAX_BRACE_WORDS;

    static final String PREFIX = "git hooks must not be skipped: ";

    /** Lower-case text whose presence, with an unanalysable part, refuses the command. */
    private static final String[] BYPASS_MENTIONS = {
        "verif", "hookspath", "husky", "lefthook", "overcommit", "skip", "git_config",
    };

    private final String source;
    /** The first certain finding: a reason. */
    private String denial;
    /** The first finding made while reading a computed command name as git. */
    private String computedDenial;
    /** The first part whose value only running the command would tell. */
    private String uncertainty;
    /** Whether an uncertainty was in the arguments of a subcommand whose {@code -n} skips hooks. */
    private boolean uncertainShortN;
    /** The first limit passed. */
    private String tooComplex;
    /** Why a variable exported earlier in the command turns hooks off, for every later git call. */
    private String exportedEnv;
    /** Why the assignments of an enclosing {@code VAR=… sh -c} turn hooks off, while inside it. */
    private String inheritedEnv;
    private final CommandWalker walker = new CommandWalker(this);

    private HookBypass(String source) {
        this.source = source;
    }

    /** Why running {@code command} would skip git hooks, or {@code null} when it would not. */
    static String reasonFor(String command) {
        if (command.length() > MAX_COMMAND_CHARS) {
            String lower = command.toLowerCase(Locale.ROOT);
            String mention = mentionedBypass(lower);
            if (lower.contains("git") && mention != null) {
                return PREFIX + "the command is longer than " + MAX_COMMAND_CHARS
                        + " characters, too long to check, and mentions " + mention
                        + "; run git in a shorter command, without skipping hooks";
            }
            return null;
        }
        HookBypass check = new HookBypass(command);
        check.walker.walk(command, 0);
        return check.verdict();
    }

    private String verdict() {
        if (denial != null) {
            return denial;
        }
        if (computedDenial == null && tooComplex == null && uncertainty == null) {
            return null;
        }
        String lower = source.toLowerCase(Locale.ROOT);
        if (computedDenial != null && lower.contains("git")) {
            return PREFIX + "the command name is computed at run time, and if it is git: "
                    + computedDenial.substring(PREFIX.length()) + "; call git by name";
        }
        if (tooComplex != null && lower.contains("git")) {
            return PREFIX + "the command is too complex to check (" + tooComplex + ") and mentions git;"
                    + " run git directly, without skipping hooks";
        }
        String mention = uncertainty == null ? null : mentionedBypass(lower);
        if (mention == null && uncertainShortN && uncertainty != null && lower.contains("git")
                && hasShortOptionN(lower)) {
            mention = "a -n option";
        }
        if (mention != null) {
            return PREFIX + "the command is too indirect to check (" + uncertainty + ") and mentions "
                    + mention + "; run git directly, without skipping hooks";
        }
        return null;
    }

    /** The first of {@link #BYPASS_MENTIONS} in {@code lower}, or {@code null}. */
    static String mentionedBypass(String lower) {
        for (String m : BYPASS_MENTIONS) {
            if (lower.contains(m)) {
                return "\"" + m + "\"";
            }
        }
        return null;
    }

    /** Whether {@code text} has a word like {@code -n} or {@code -an}: a dash, then letters, one of them n. */
    static boolean hasShortOptionN(String text) {
        for (int i = text.indexOf('-'); i >= 0; i = text.indexOf('-', i + 1)) {
            if (i > 0 && " \t\n'\";|&(".indexOf(text.charAt(i - 1)) < 0) {
                continue;
            }
            boolean n = false;
            int k = i + 1;
            while (k < text.length() && text.charAt(k) >= 'a' && text.charAt(k) <= 'z') {
                n |= text.charAt(k) == 'n';
                k++;
            }
            if (n && (k == text.length() || " \t\n'\";|&)".indexOf(text.charAt(k)) >= 0)) {
                return true;
            }
        }
        return false;
    }

    private void deny(String reason) {
        if (walker.readingComputedName()) {
            if (computedDenial == null) {
                computedDenial = reason;
            }
        } else if (denial == null) {
            denial = reason;
        }
    }

    @Override
    public void tooComplex(String why, String text) {
        if (tooComplex == null) {
            tooComplex = why;
        }
    }

    /** Records an unknown part; not while reading a computed command name as git, which is a guess already. */
    private void unsure(String why) {
        if (uncertainty == null && !walker.readingComputedName()) {
            uncertainty = why;
        }
    }

    @Override
    public void unknown(String why) {
        unsure(why);
    }

    @Override
    public void unreadScript(String why) {
        unsure(why);
        uncertainShortN |= !walker.readingComputedName();
    }

    @Override
    public boolean finished() {
        return denial != null;
    }

    @Override
    public void command(SimpleCommand c, List<ShellWord> words, int depth) {
    }

    /** {@code git}, {@code git-commit} and the like: checked; any other program is left to the walker. */
    @Override
    public boolean program(SimpleCommand c, List<ShellWord> w, int at, int to, List<ShellWord> env, int depth,
                           boolean viaXargs, boolean computed) {
        String program = gitName(ProgramNames.basename(w.get(at).text()));
        if (computed) {
            git(c, w, at + 1, to, env, depth, viaXargs, program == null ? null : subcommandOf(program));
            return true;
        }
        if (program == null) {
            return false;
        }
        git(c, w, at + 1, to, env, depth, viaXargs, subcommandOf(program));
        return true;
    }

    /**
     * A program in another language ({@code python3 -c}, {@code perl -e}, {@code node -e}, …), which
     * can run git in ways no shell reading shows: refused when it mentions git and an {@code -n}-like
     * word or a bypass.
     */
    @Override
    public void foreignProgram(String base, String text, boolean literal) {
        String lower = text.toLowerCase(Locale.ROOT);
        if (!lower.contains("git")) {
            if (!literal) {
                unsure("a " + base + " program computed at run time");
            }
            return;
        }
        String mention = mentionedBypass(lower);
        if (mention == null && hasShortOptionN(lower)) {
            mention = "a -n option";
        }
        if (mention != null) {
            deny(PREFIX + "the command is too indirect to check (a " + quote(base) + " program that runs git)"
                    + " and mentions " + mention + "; run git directly, without skipping hooks");
        } else if (!literal) {
            unsure("a " + base + " program computed at run time");
        }
    }

    /** Scripts run inside a call inherit the hook-disabling part of its assignments. */
    @Override
    public Object enterScript(List<ShellWord> env) {
        String saved = inheritedEnv;
        if (inheritedEnv == null) {
            inheritedEnv = hookEnvReason(env, 0, env.size());
        }
        return saved;
    }

    @Override
    public void leaveScript(Object saved) {
        inheritedEnv = (String) saved;
    }

    /** Records a hook-disabling variable assigned or exported for the rest of the script. */
    @Override
    public void exported(List<ShellWord> w, int from) {
        if (exportedEnv == null) {
            exportedEnv = hookEnvReason(w, from, w.size());
        }
    }

    /**
     * A git call: global options, then the subcommand ({@code fixedSubcommand} for {@code git-commit}
     * and the like) and its arguments, {@code w[from..to)}.
     */
    private void git(SimpleCommand c, List<ShellWord> w, int from, int to, List<ShellWord> env, int depth,
                     boolean viaXargs, String fixedSubcommand) {
        String envReason = hookEnvReason(env, 0, env.size());
        if (envReason == null) {
            envReason = inheritedEnv != null ? inheritedEnv : exportedEnv;
        }
        if (envReason != null) {
            deny(envReason);
            return;
        }
        int j = from;
        String sub = fixedSubcommand;
        List<String> gitAliases = new ArrayList<>(0);
        while (sub == null && j < to) {
            ShellWord a = w.get(j);
            String t = a.text();
            if (!a.literal()) {
                unsure("a git option or subcommand computed at run time");
                j++;
                if (!t.startsWith("-")) {
                    sub = "";
                    uncertainShortN |= !walker.readingComputedName();
                }
            } else if (!t.startsWith("-") || t.equals("-")) {
                sub = t;
                j++;
            } else if (t.equals("-c")) {
                if (j + 1 < to) {
                    configOverride(w.get(j + 1), 0, depth, gitAliases);
                }
                j += 2;
            } else if (t.startsWith("-c")) {
                configOverride(w.get(j), 2, depth, gitAliases);
                j++;
            } else if (t.equals("--config-env")) {
                if (j + 1 < to) {
                    configEnv(w.get(j + 1).text());
                }
                j += 2;
            } else if (t.startsWith("--config-env=")) {
                configEnv(t.substring("--config-env=".length()));
                j++;
            } else if (t.equals("-C") || t.equals("--git-dir") || t.equals("--work-tree") || t.equals("--namespace")
                    || t.equals("--super-prefix") || t.equals("--shallow-file") || t.equals("--attr-source")) {
                j += 2;
            } else {
                j++;
            }
            if (denial != null) {
                return;
            }
        }
        if (sub == null) {
            return;
        }
        String expansion = CommandWalker.aliasExpansion(gitAliases, sub);
        if (expansion != null) {
            if (!expansion.startsWith("!")) {
                walker.walkWith("git " + expansion + walker.quotedArguments(w, j, to), env, depth);
            }
            return;
        }
        if (sub.isEmpty()) {
            computedSubcommand(w, j, to, depth, viaXargs);
            return;
        }
        GitOptionTable table = GitOptionTable.of(sub);
        if (table != null) {
            options(table, w, j, to, depth, viaXargs);
        } else if (sub.equals("config")) {
            config(w, j, to);
        } else if (sub.equals("submodule")) {
            submodule(w, j, to, env, depth);
        } else if (sub.equals("bisect") && j < to && w.get(j).text().equals("run")) {
            walker.follow(c, w, j + 1, to, new ArrayList<>(env), depth, false);
        } else {
            for (int k = j; k < to; k++) {
                String t = w.get(k).text();
                if (t.equals("--")) {
                    break;
                }
                if (t.equals("--no-verify") || t.startsWith("--no-verify=")) {
                    deny(PREFIX + "remove " + quote(t) + " from git " + quote(sub)
                            + " (an alias, perhaps, of a command that has it) and fix what the hook reports");
                    return;
                }
            }
        }
    }

    /**
     * The arguments after a git subcommand computed at run time ({@code git $(echo commit) -n}),
     * read as commit's: a finding there refuses the command as too indirect to check.
     */
    private void computedSubcommand(List<ShellWord> w, int from, int to, int depth, boolean viaXargs) {
        String before = denial;
        String beforeComputed = computedDenial;
        options(GitOptionTable.COMMIT, w, from, to, depth, viaXargs);
        String lead = PREFIX + "the command is too indirect to check (the git subcommand is computed at run time,"
                + " and if it is commit: ";
        if (denial != null && denial != before) {
            denial = lead + denial.substring(PREFIX.length()) + "); call git commit by name";
        }
        if (computedDenial != null && computedDenial != beforeComputed) {
            computedDenial = lead + computedDenial.substring(PREFIX.length()) + ")";
        }
    }

    /**
     * The arguments of a subcommand that can skip hooks, read as git reads them; the last
     * {@code --no-verify}/{@code --verify} word before {@code --} decides.
     */
    private void options(GitOptionTable table, List<ShellWord> w, int from, int to, int depth, boolean viaXargs) {
        String skipWord = null;
        boolean exact = false;
        for (int k = from; k < to; k++) {
            ShellWord a = w.get(k);
            String t = a.text();
            if (!a.literal()) {
                if (a.dynamic() && mayBeSkipOption(table, a.fixedPrefix())) {
                    deny(PREFIX + "the command is too indirect to check (" + quote(a.fixedPrefix())
                            + "… of git " + table.subcommand + " is completed at run time and may be "
                            + (a.fixedPrefix().startsWith("--") || table.noVerifyShort() == 0 ? "--no-verify" : "-n")
                            + "); write git's options out literally, without skipping hooks");
                    continue;
                }
                unsure("an argument of git " + table.subcommand + " is " + (a.dynamic() ? "computed" : "a glob expanded")
                        + " at run time");
                uncertainShortN |= table.noVerifyShort() != 0 && !walker.readingComputedName();
                continue;
            }
            if (t.equals("--") || t.equals("--end-of-options")) {
                break;
            }
            if (t.startsWith("--")) {
                int eq = t.indexOf('=');
                GitOptionTable.Resolution r = table.resolve(eq < 0 ? t.substring(2) : t.substring(2, eq));
                GitOptionTable.Effect e = r.effect();
                if (e == GitOptionTable.Effect.SKIPS_HOOKS) {
                    skipWord = t;
                    exact = r.match == GitOptionTable.Match.EXACT;
                } else if (e == GitOptionTable.Effect.RUNS_HOOKS) {
                    skipWord = null;
                }
                boolean exec = r.option != null && table == GitOptionTable.REBASE && r.option.name.equals("exec");
                if (r.consumesNextWord(eq >= 0)) {
                    if (++k < to && exec) {
                        walker.walkWord(w.get(k), List.of(), depth, "a git rebase --exec command");
                    }
                } else if (eq >= 0 && exec) {
                    walker.walk(t.substring(eq + 1), depth + 1);
                }
            } else if (t.length() > 1 && t.charAt(0) == '-') {
                for (int m = 1; m < t.length(); m++) {
                    char ch = t.charAt(m);
                    if (ch == table.noVerifyShort()) {
                        skipWord = t;
                        exact = t.length() == 2;
                    } else if (table.shortTakesValue(ch)) {
                        boolean exec = table == GitOptionTable.REBASE && ch == 'x';
                        if (m + 1 < t.length()) {
                            if (exec) {
                                walker.walk(t.substring(m + 1), depth + 1);
                            }
                        } else if (++k < to && exec) {
                            walker.walkWord(w.get(k), List.of(), depth, "a git rebase --exec command");
                        }
                        break;
                    } else if (table.shortTakesOptionalValue(ch)) {
                        break;
                    }
                }
            }
        }
        if (skipWord != null) {
            deny(flagReason(table, skipWord, exact));
        } else if (viaXargs) {
            unsure("xargs adds arguments to git " + table.subcommand + " from its input");
            uncertainShortN |= table.noVerifyShort() != 0;
        }
    }

    /**
     * Whether an option word of which only {@code fixed} is known before run time may turn out to
     * skip hooks: {@code -} or a short cluster whose known letters take no value (the next may be
     * {@code n}), or {@code --} and the start of {@code no-verify}, or an exact skipping option
     * with a computed value.
     */
    static boolean mayBeSkipOption(GitOptionTable table, String fixed) {
        if (!fixed.startsWith("-")) {
            return false;
        }
        if (fixed.startsWith("--")) {
            int eq = fixed.indexOf('=');
            if (eq >= 0) {
                return table.resolve(fixed.substring(2, eq)).effect() == GitOptionTable.Effect.SKIPS_HOOKS;
            }
            return "no-verify".startsWith(fixed.substring(2));
        }
        if (table.noVerifyShort() == 0) {
            return false;
        }
        for (int m = 1; m < fixed.length(); m++) {
            char ch = fixed.charAt(m);
            if (ch == table.noVerifyShort()) {
                return true;
            }
            if (table.shortTakesValue(ch) || table.shortTakesOptionalValue(ch)) {
                return false;
            }
        }
        return true;
    }

    private static String flagReason(GitOptionTable table, String word, boolean exact) {
        if (exact && table.noVerifyShort() != 0) {
            return PREFIX + "remove --no-verify / -n and fix what the hook reports";
        }
        String what;
        if (exact) {
            what = quote(word);
        } else if (word.startsWith("--")) {
            what = quote(word) + " (git reads it as --no-verify)";
        } else {
            what = quote(word) + " (its n is --no-verify)";
        }
        return PREFIX + "remove " + what + " from git " + table.subcommand + " and fix what the hook reports";
    }

    /**
     * {@code git -c NAME[=VALUE]} ({@code offset} 2 for the {@code -cNAME} spelling git refuses): a
     * hooks directory override or config include, or an alias, whose name and expansion are added
     * to {@code aliases} and whose {@code !shell} expansion is checked.
     */
    private void configOverride(ShellWord setting, int offset, int depth, List<String> aliases) {
        String t = setting.text().substring(offset);
        if (!setting.literal()) {
            unsure("a git -c setting computed at run time");
        }
        int eq = t.indexOf('=');
        String key = (eq < 0 ? t : t.substring(0, eq)).toLowerCase(Locale.ROOT);
        if (key.equals("core.hookspath")) {
            deny(PREFIX + "remove -c " + quote(t) + " (core.hooksPath points git away from the repository's hooks)"
                    + " and fix what the hook reports");
        } else if ((key.startsWith("include.") || key.startsWith("includeif.")) && key.endsWith(".path")) {
            deny(PREFIX + "remove -c " + quote(t) + " (an included config file can set core.hooksPath)"
                    + " and fix what the hook reports");
        } else if (key.startsWith("alias.") && eq >= 0) {
            String expansion = t.substring(eq + 1);
            aliases.add(key.substring(6));
            aliases.add(expansion);
            walker.walk(expansion.startsWith("!") ? expansion.substring(1) : "git " + expansion, depth + 1);
        }
    }

    /** {@code git --config-env=NAME=ENVVAR}. */
    private void configEnv(String t) {
        int eq = t.indexOf('=');
        String key = (eq < 0 ? t : t.substring(0, eq)).toLowerCase(Locale.ROOT);
        if (key.equals("core.hookspath")) {
            deny(PREFIX + "remove --config-env=" + quote(t)
                    + " (core.hooksPath points git away from the repository's hooks) and fix what the hook reports");
        }
    }

    /** {@code git config [options] core.hooksPath VALUE} and {@code --unset}: a lasting hooks directory change. */
    private void config(List<ShellWord> w, int from, int to) {
        boolean reads = false;
        boolean writes = false;
        int positional = 0;
        int keyAt = -1;
        String verb = null;
        for (int k = from; k < to; k++) {
            String t = w.get(k).text();
            if (t.equals("-f") || t.equals("--file") || t.equals("--blob") || t.equals("--type") || t.equals("-t")
                    || t.equals("--default") || t.equals("--comment") || t.equals("--value")) {
                k++;
            } else if (t.startsWith("--get") || t.equals("-l") || t.equals("--list") || t.equals("--name-only")) {
                reads = true;
            } else if (t.startsWith("--unset") || t.equals("--add") || t.equals("--replace-all")) {
                writes = true;
            } else if (!t.startsWith("-")) {
                if (positional == 0 && (t.equals("set") || t.equals("unset") || t.equals("get") || t.equals("list"))) {
                    verb = t;
                } else if (t.toLowerCase(Locale.ROOT).equals("core.hookspath")) {
                    keyAt = positional;
                }
                positional++;
            }
        }
        if (verb != null) {
            reads = verb.equals("get") || verb.equals("list");
            writes = !reads;
        }
        if (keyAt >= 0 && !reads && (writes || positional > keyAt + 1)) {
            deny(PREFIX + "leave core.hooksPath alone (git config changes which hooks git runs);"
                    + " ask the user to change it");
        }
    }

    /** {@code git submodule [--quiet] foreach [--recursive] COMMAND}: the command is a script. */
    private void submodule(List<ShellWord> w, int from, int to, List<ShellWord> env, int depth) {
        int k = from;
        while (k < to && w.get(k).text().startsWith("-")) {
            k++;
        }
        if (k >= to || !w.get(k).text().equals("foreach")) {
            return;
        }
        k = CommandWalker.skipDashWords(w, k + 1, to);
        StringBuilder text = new StringBuilder();
        for (int m = k; m < to; m++) {
            text.append(m > k ? " " : "").append(w.get(m).text());
        }
        walker.walkWith(text.toString(), env, depth);
    }

    /** Why one of {@code w[from..to)}, assignments, turns a hook manager off, or {@code null}. */
    private String hookEnvReason(List<ShellWord> w, int from, int to) {
        for (int k = from; k < to; k++) {
            ShellWord a = w.get(k);
            String t = a.text();
            int eq = t.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String name = t.charAt(eq - 1) == '+' ? t.substring(0, eq - 1) : t.substring(0, eq);
            String value = t.substring(eq + 1);
            String why = hookEnvEffect(name, value);
            if (why != null && !a.literal()) {
                unsure("a value computed at run time for " + name);
            } else if (why != null && !why.isEmpty()) {
                return PREFIX + "remove " + quote(t) + " (" + why + ") and fix what the hook reports";
            }
        }
        return null;
    }

    /**
     * What assigning {@code value} to {@code name} does to hooks: a phrase when it turns them off,
     * {@code ""} when the variable matters but this value does not, {@code null} when it never matters.
     */
    private static String hookEnvEffect(String name, String value) {
        switch (name) {
            case "HUSKY":
                return value.equals("0") ? "it turns husky's hooks off" : "";
            case "HUSKY_SKIP_HOOKS":
                return value.isEmpty() ? "" : "it turns husky's hooks off";
            case "LEFTHOOK":
                return value.equals("0") || value.equals("false") ? "it turns lefthook off" : "";
            case "LEFTHOOK_EXCLUDE":
                return value.isEmpty() ? "" : "it skips lefthook hooks";
            case "SKIP":
                return value.isEmpty() ? "" : "it skips pre-commit / overcommit hooks";
            case "OVERCOMMIT_DISABLE":
                return value.isEmpty() || value.equals("0") ? "" : "it turns overcommit off";
            case "SKIP_SIMPLE_GIT_HOOKS":
                return value.isEmpty() ? "" : "it turns simple-git-hooks off";
            case "GIT_CONFIG_GLOBAL": case "GIT_CONFIG_SYSTEM":
                return value.equals("/dev/null") ? "" : "a config file other than the user's can set core.hooksPath";
            case "GIT_CONFIG_PARAMETERS":
                return value.toLowerCase(Locale.ROOT).contains("hookspath") ? "it sets core.hooksPath" : "";
            default:
                if (name.startsWith("GIT_CONFIG_KEY_")) {
                    return value.trim().toLowerCase(Locale.ROOT).equals("core.hookspath") ? "it sets core.hooksPath" : "";
                }
                return null;
        }
    }

    /** {@code git} itself, or the subcommand of an exec-path program ({@code git-commit}); else {@code null}. */
    private static String gitName(String base) {
        if (base.equals("git") || base.equals("git.exe")) {
            return "";
        }
        if (base.startsWith("git-") && GitOptionTable.of(base.substring(4)) != null) {
            return base.substring(4);
        }
        return null;
    }
    private static String subcommandOf(String gitName) {
        return gitName.isEmpty() ? null : gitName;
    }

    /** {@code text} for a reason: at most {@value #MAX_QUOTED_CHARS} characters, control characters as {@code ?}. */
    static String quote(String text) {
        int n = Math.min(text.length(), MAX_QUOTED_CHARS);
        StringBuilder b = new StringBuilder(n + 1);
        for (int i = 0; i < n; i++) {
            char ch = text.charAt(i);
            b.append(ch < 0x20 || ch == 0x7f ? '?' : ch);
        }
        if (text.length() > n) {
            b.append('…');
        }
        return b.toString();
    }
}
