package dev.agentwarden.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What {@link CommandWalker} reaches in a command line. The visitor claims {@code git} and
 * {@code warden}; each claimed program renders as its words from the program on, then
 * {@code @depth}, {@code +xargs} when xargs appends arguments, {@code ?} when its name is
 * computed, {@code [A=1]} for the assignments it runs with; foreign programs as
 * {@code interpreter{text}}, unknowns as {@code !why}, limits as {@code #why}; separated by {@code " ; "}.
 */
class CommandWalkerTest {

    static Stream<Arguments> walks() {
        return Stream.of(
                a("plain", "git status", "git|status@0"),
                a("printOnly", "echo git commit; grep warden x", ""),
                a("wrappers", "sudo -u me env A=1 nohup time -p command git log", "git|log@0[A=1]"),
                a("execDashA", "exec -a name git log", "git|log@0"),
                a("commandDashV", "command -v git", ""),
                a("nestedShells", "sh -c \"bash -lc 'git push'\"", "git|push@2"),
                a("shellAssignmentsReachNested", "A=1 sh -c 'git push'", "git|push@1"),
                a("findExec", "find . -name x -exec git add {} \\; -print", "git|add|{}@0"),
                a("xargs", "ls | xargs -n 1 git rm", "git|rm@0+xargs"),
                a("evalAndTrap", "eval 'git a'; trap 'warden b' EXIT", "git|a@1 ; warden|b@1"),
                a("suAndWatch", "su -c 'git a' root; watch -n 1 git b", "git|a@1 ; git|b@1"),
                a("watchExec", "watch -x git b", "git|b@0"),
                a("envSplitString", "env -S 'git a' b", "git|a|b@1"),
                a("shellAlias", "alias g='git log'; g -1", "git|log@1 ; git|log|-1@1"),
                a("heredocToShell", "bash <<EOF\ngit a\nEOF", "git|a@1"),
                a("pipedToShell", "cat x | sh", "!a shell reads its script from a pipe"),
                a("interpreter", "python3 -c 'print(1)'; node -e x; perl script.pl", "python3{print(1)} ; node{x}"),
                a("interpreterStdin", "python3 - <<EOF\nimport os\nEOF", "python3{import os\n}"),
                a("claimedWordInArguments", "nice -n 5 git gc", "git|gc@0"),
                a("shellDashCInArguments", "nice sh -c 'warden x'", "warden|x@1"),
                a("computedName", "$G commit", "~|commit@0?"),
                a("computedScript", "sh -c \"$S\"", "!a shell script computed at run time"),
                a("braceExpansion", "git {a,b}", "git|a|b@0"),
                a("deepestScript", "eval ".repeat(CommandWalker.MAX_SCRIPT_DEPTH) + "git x", "git|x@8"),
                a("scriptTooDeep", "eval ".repeat(CommandWalker.MAX_SCRIPT_DEPTH + 1) + "git x",
                        "#scripts handed to shells nest deeper than 8"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("walks")
    void walk_reaches(String name, String command, String expected) {
        Recorder r = new Recorder();
        r.walker.walk(command, 0);
        assertThat(String.join(" ; ", r.seen)).isEqualTo(expected);
    }

    private static Arguments a(String name, String command, String expected) {
        return Arguments.of(name, command, expected);
    }

    private static final class Recorder implements CommandWalker.Visitor {
        final CommandWalker walker = new CommandWalker(this);
        final List<String> seen = new ArrayList<>();

        @Override
        public void command(SimpleCommand c, List<ShellWord> words, int depth) {
        }

        @Override
        public boolean program(SimpleCommand c, List<ShellWord> words, int at, int to, List<ShellWord> env, int depth,
                               boolean viaXargs, boolean computed) {
            String base = ProgramNames.basename(words.get(at).text());
            if (!computed && !base.equals("git") && !base.equals("warden")) {
                return false;
            }
            StringBuilder b = new StringBuilder();
            for (int k = at; k < to; k++) {
                b.append(k > at ? "|" : "").append(words.get(k).literal() ? words.get(k).text() : "~");
            }
            b.append('@').append(depth).append(viaXargs ? "+xargs" : "").append(computed ? "?" : "");
            if (!env.isEmpty()) {
                b.append('[');
                for (int k = 0; k < env.size(); k++) {
                    b.append(k > 0 ? " " : "").append(env.get(k).text());
                }
                b.append(']');
            }
            seen.add(b.toString());
            return true;
        }

        @Override
        public void foreignProgram(String interpreter, String text, boolean literal) {
            seen.add(interpreter + "{" + text + "}");
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
        public void unknown(String why) {
            seen.add("!" + why);
        }

        @Override
        public void unreadScript(String why) {
            seen.add("!" + why);
        }

        @Override
        public void tooComplex(String why, String text) {
            seen.add("#" + why);
        }

        @Override
        public boolean finished() {
            return false;
        }
    }
}
