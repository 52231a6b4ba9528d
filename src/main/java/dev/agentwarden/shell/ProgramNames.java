package dev.agentwarden.shell;

/**
 * What a program's name says about what it runs: the one set of name lists the command checks
 * share. Each list is matched against a basename ({@link #basename}).
 */
public final class ProgramNames {

    private ProgramNames() {
    }

    /** The last part of {@code path}: {@code git} for {@code /usr/bin/git}. */
    public static String basename(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? path : path.substring(slash + 1);
    }

    /** A POSIX-like shell: {@code -c SCRIPT} runs a script, no script reads one from standard input. */
    public static boolean isShell(String base) {
        switch (base) {
            case "sh": case "bash": case "zsh": case "dash": case "ksh": case "mksh": case "ash": case "yash":
            case "posh": case "fish":
                return true;
            default:
                return false;
        }
    }

    /**
     * An interpreter of another language ({@code python3}, {@code perl}, {@code node}, …): its program
     * is an option's value ({@link #isProgramOption}, {@link #programLetter}), a file, or standard input.
     */
    public static boolean isInterpreter(String base) {
        if (base.startsWith("python") || base.startsWith("pypy")) {
            return true;
        }
        switch (base) {
            case "perl": case "ruby": case "node": case "nodejs": case "deno": case "bun": case "php": case "lua":
            case "luajit": case "tclsh": case "Rscript": case "osascript": case "pwsh": case "groovy": case "jshell":
                return true;
            default:
                return false;
        }
    }

    /** An interpreter's long option whose value is its program ({@code --eval}, {@code --print}, {@code --command}). */
    public static boolean isProgramOption(String word) {
        return word.equals("--eval") || word.equals("--print") || word.equals("--command");
    }

    /**
     * The index in an interpreter's short option cluster of the letter whose value is a program
     * ({@code -c}, {@code -e}, {@code -E}, {@code -r}), or -1.
     */
    public static int programLetter(String cluster) {
        for (int m = 1; m < cluster.length(); m++) {
            if ("ceEr".indexOf(cluster.charAt(m)) >= 0) {
                return m;
            }
        }
        return -1;
    }

    /**
     * A program that, given no script, runs what it reads: a shell, any name ending in {@code sh}
     * ({@code csh}, {@code ssh}), an interpreter, {@code xargs}, {@code parallel}, {@code eval},
     * {@code source} or {@code .}.
     */
    public static boolean readsProgram(String base) {
        if (base.endsWith("sh") || isShell(base) || isInterpreter(base)) {
            return true;
        }
        switch (base) {
            case "xargs": case "parallel": case "eval": case "source": case ".":
                return true;
            default:
                return false;
        }
    }

    /**
     * A command that only prints or searches text and runs none of its arguments
     * ({@code echo}, {@code grep}, {@code cat}, …).
     */
    public static boolean printsOnly(String base) {
        switch (base) {
            case "echo": case "printf": case "cat": case "grep": case "egrep": case "fgrep": case "rg": case "ag":
            case "head": case "tail": case "less": case "more": case "wc": case "man": case "which": case "type":
            case "ls":
                return true;
            default:
                return false;
        }
    }
}
