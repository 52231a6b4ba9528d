package dev.agentwarden.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * block-no-verify with the shared print-only list ({@link dev.agentwarden.shell.ProgramNames#printsOnly}):
 * {@code source}, {@code sed} and {@code awk} can run commands, so a git call among their
 * arguments is read; commands that only print still run nothing.
 */
class HookBypassWalkTest {

    private static final boolean DENY = true;
    private static final boolean ALLOW = false;

    static Stream<Arguments> commands() {
        return Stream.of(
                c("sourcedWrapperRunsGit", "source ./with-env.sh git commit --no-verify -m x", DENY),
                c("dotSourcedWrapperRunsGit", ". ./with-env.sh git push --no-verify", DENY),
                c("sourcedWrapperGitWithHooks", "source ./with-env.sh git commit -m x", ALLOW),
                c("awkThenCommit", "awk '{print}' notes.txt && git commit -m x", ALLOW),
                c("echoMentionsBypass", "echo git commit --no-verify", ALLOW),
                c("grepMentionsBypass", "grep -rn 'git commit' --no-verify docs", ALLOW));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commands")
    void reasonFor_command(String name, String command, boolean denied) {
        assertThat(HookBypass.reasonFor(command) != null).as(command).isEqualTo(denied);
    }

    private static Arguments c(String name, String command, boolean denied) {
        return Arguments.of(name, command, denied);
    }
}
