package dev.agentwarden.builtin;

import java.util.ArrayList;
import java.util.List;

/**
 * The options of one git subcommand that has a hook-skipping option, as git's parse-options reads
 * them: long names (with their {@code no-} negations and unique-prefix abbreviations), which take
 * a value, and the short letters. Taken from {@code git <cmd> -h} and
 * {@code git <cmd> --git-completion-helper-all} of git 2.39, plus {@code am --no-verify} (2.40).
 *
 * <p>A long option is written {@code name}, {@code name=} (takes a value: {@code --name v} or
 * {@code --name=v}), {@code name?} (optional value, only as {@code --name=v}); a trailing {@code !}
 * marks one that cannot be negated.
 */
final class GitOptionTable {

    /** What an option does to the hook-skipping state; git keeps the last one given. */
    enum Effect { NONE, SKIPS_HOOKS, RUNS_HOOKS }

    /** How git read a {@code --long} word. */
    enum Match { EXACT, ABBREVIATION, AMBIGUOUS, UNKNOWN }

    static final GitOptionTable COMMIT = new GitOptionTable("commit",
            "quiet verbose file= author= date= message= reedit-message= reuse-message= fixup= squash= reset-author"
            + " trailer=! signoff template= edit cleanup= status gpg-sign? all include interactive patch only"
            + " no-verify dry-run short branch ahead-behind porcelain long null amend no-post-rewrite"
            + " untracked-files? pathspec-from-file= pathspec-file-nul allow-empty allow-empty-message",
            "qvseaiponz", "FmcCt", "Su", 'n');

    static final GitOptionTable MERGE = new GitOptionTable("merge",
            "stat summary log? squash commit edit cleanup= ff ff-only! rerere-autoupdate verify-signatures"
            + " strategy= strategy-option= message= file=! into-name= verbose quiet abort quit continue"
            + " allow-unrelated-histories progress gpg-sign? autostash overwrite-ignore signoff no-verify",
            "nevq", "sXmF", "S", (char) 0);

    static final GitOptionTable PUSH = new GitOptionTable("push",
            "verbose quiet repo= all mirror delete tags dry-run porcelain force force-with-lease?"
            + " force-if-includes recurse-submodules= thin receive-pack= exec= set-upstream progress prune"
            + " no-verify follow-tags signed? atomic push-option= ipv4 ipv6",
            "vqdnfu46", "o", "", (char) 0);

    static final GitOptionTable PULL = new GitOptionTable("pull",
            "verbose quiet progress recurse-submodules? rebase? stat summary log? signoff? squash commit edit"
            + " cleanup= ff ff-only! verify verify-signatures autostash strategy= strategy-option= gpg-sign?"
            + " allow-unrelated-histories all append upload-pack= force tags prune jobs? dry-run keep depth="
            + " shallow-since= shallow-exclude= deepen= unshallow! update-shallow refmap=! server-option= ipv4"
            + " ipv6 negotiation-tip= show-forced-updates set-upstream",
            "vqnaftpk46", "sXo", "rSj", (char) 0);

    static final GitOptionTable REBASE = new GitOptionTable("rebase",
            "onto= keep-base no-verify quiet verbose no-stat signoff committer-date-is-author-date"
            + " reset-author-date ignore-date ignore-whitespace whitespace= force-rebase no-ff continue! skip!"
            + " abort! quit! edit-todo! show-current-patch! apply! merge! interactive! preserve-merges"
            + " rerere-autoupdate empty=! keep-empty autosquash update-refs gpg-sign? autostash exec="
            + " allow-empty-message rebase-merges? fork-point strategy= strategy-option= root"
            + " reschedule-failed-exec reapply-cherry-picks",
            "qvnfmi", "CxsX", "Sr", (char) 0);

    static final GitOptionTable AM = new GitOptionTable("am",
            "interactive no-verify 3way quiet signoff utf8 keep keep-non-patch message-id keep-cr scissors"
            + " quoted-cr=! whitespace= ignore-space-change ignore-whitespace directory= exclude= include="
            + " patch-format= reject resolvemsg= continue! resolved! skip! abort! quit! show-current-patch?!"
            + " retry! allow-empty! committer-date-is-author-date ignore-date rerere-autoupdate gpg-sign?"
            + " empty=!",
            "in3qsukmcr", "Cp", "S", 'n');

    private static final GitOptionTable[] ALL = {COMMIT, MERGE, PUSH, PULL, REBASE, AM};

    final String subcommand;
    private final String longOptions;
    /**
     * {@link #longOptions} parsed on first use: most commands name no long option. The tables are
     * shared by every thread a resident dispatches on: volatile, so a thread that sees the array
     * sees its elements (two threads may both parse it, to equal arrays).
     */
    private volatile Option[] options;
    private final String shortNoValue;
    private final String shortValue;
    private final String shortOptionalValue;
    private final char noVerifyShort;

    private GitOptionTable(String subcommand, String longOptions, String shortNoValue, String shortValue,
                           String shortOptionalValue, char noVerifyShort) {
        this.subcommand = subcommand;
        this.longOptions = longOptions;
        this.shortNoValue = shortNoValue;
        this.shortValue = shortValue;
        this.shortOptionalValue = shortOptionalValue;
        this.noVerifyShort = noVerifyShort;
    }

    /** The table of a subcommand that can skip hooks, or {@code null}. */
    static GitOptionTable of(String subcommand) {
        for (GitOptionTable t : ALL) {
            if (t.subcommand.equals(subcommand)) {
                return t;
            }
        }
        return null;
    }

    /** The short letter that means {@code --no-verify}, or 0 when there is none. */
    char noVerifyShort() {
        return noVerifyShort;
    }

    /** Whether short option {@code c} takes the rest of its cluster, or the next word, as value. */
    boolean shortTakesValue(char c) {
        return shortValue.indexOf(c) >= 0;
    }

    /** Whether short option {@code c} takes the rest of its cluster as an optional value. */
    boolean shortTakesOptionalValue(char c) {
        return shortOptionalValue.indexOf(c) >= 0;
    }

    /**
     * How git reads {@code --name} (the part before any {@code =}), following parse-options'
     * {@code parse_long_opt}: an exact name or negation wins; otherwise a prefix of exactly one
     * option's name or negation is that option; a prefix of several is ambiguous (git refuses the
     * command). {@code "n"}, {@code "no"} and {@code "no-"} abbreviate every negation.
     */
    Resolution resolve(String name) {
        Resolution abbreviation = null;
        boolean ambiguous = false;
        boolean maySkip = false;
        Option[] parsed = options;
        if (parsed == null) {
            parsed = parseLongOptions(longOptions);
            options = parsed;
        }
        for (Option o : parsed) {
            String longName = o.name;
            boolean optUnset = false;
            int candidate = NONE;
            while (true) {
                if (name.equals(longName)) {
                    return new Resolution(Match.EXACT, o, optUnset);
                }
                if (longName.startsWith(name)) {
                    candidate = optUnset ? UNSET : SET;
                } else if (!o.negatable) {
                    break;
                } else if ("no-".startsWith(name)) {
                    candidate = optUnset ? SET : UNSET;
                } else if (!name.startsWith("no-")) {
                    if (!optUnset && longName.startsWith("no-")) {
                        longName = longName.substring(3);
                        optUnset = true;
                        continue;
                    }
                } else if (name.length() - 3 == longName.length() && name.endsWith(longName)) {
                    return new Resolution(Match.EXACT, o, !optUnset);
                } else if (longName.startsWith(name.substring(3))) {
                    candidate = optUnset ? SET : UNSET;
                }
                break;
            }
            if (candidate != NONE) {
                Resolution r = new Resolution(Match.ABBREVIATION, o, candidate == UNSET);
                maySkip |= r.effect() == Effect.SKIPS_HOOKS;
                ambiguous |= abbreviation != null;
                abbreviation = r;
            }
        }
        if (ambiguous) {
            return new Resolution(Match.AMBIGUOUS, null, maySkip);
        }
        return abbreviation != null ? abbreviation : new Resolution(Match.UNKNOWN, null, false);
    }

    private static final int NONE = 0;
    private static final int SET = 1;
    private static final int UNSET = 2;

    private static Option[] parseLongOptions(String spec) {
        List<Option> out = new ArrayList<>();
        int i = 0;
        while (i < spec.length()) {
            int j = spec.indexOf(' ', i);
            if (j < 0) {
                j = spec.length();
            }
            if (j > i) {
                String word = spec.substring(i, j);
                boolean negatable = !word.endsWith("!");
                if (!negatable) {
                    word = word.substring(0, word.length() - 1);
                }
                boolean value = word.endsWith("=");
                boolean optional = word.endsWith("?");
                if (value || optional) {
                    word = word.substring(0, word.length() - 1);
                }
                out.add(new Option(word, negatable, value));
            }
            i = j + 1;
        }
        return out.toArray(new Option[0]);
    }

    /** One long option. */
    static final class Option {
        final String name;
        final boolean negatable;
        /** Whether it takes a required value, from the next word unless given as {@code --name=v}. */
        final boolean takesValue;

        Option(String name, boolean negatable, boolean takesValue) {
            this.name = name;
            this.negatable = negatable;
            this.takesValue = takesValue;
        }
    }

    /**
     * One reading of a {@code --long} word. For {@link Match#AMBIGUOUS} there is no option, and
     * {@code unset} says whether one of the readings skips hooks.
     */
    static final class Resolution {
        final Match match;
        final Option option;
        /** Whether the word negates the option ({@code --no-x} for {@code x}, {@code --x} for {@code no-x}). */
        final boolean unset;

        Resolution(Match match, Option option, boolean unset) {
            this.match = match;
            this.option = option;
            this.unset = unset;
        }

        /**
         * What the word does to hook running. An ambiguous prefix that one reading makes
         * {@code --no-verify} counts as skipping: git 2.39 refuses it, but a git whose option list
         * differs reads it as that option.
         */
        Effect effect() {
            if (match == Match.AMBIGUOUS) {
                return unset ? Effect.SKIPS_HOOKS : Effect.NONE;
            }
            if (option == null) {
                return Effect.NONE;
            }
            if (option.name.equals("no-verify")) {
                return unset ? Effect.RUNS_HOOKS : Effect.SKIPS_HOOKS;
            }
            if (option.name.equals("verify")) {
                return unset ? Effect.SKIPS_HOOKS : Effect.RUNS_HOOKS;
            }
            return Effect.NONE;
        }

        /** Whether the next word is this option's value. */
        boolean consumesNextWord(boolean hasInlineValue) {
            return option != null && option.takesValue && !unset && !hasInlineValue;
        }
    }
}
