package dev.agentwarden.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs of Warden's trust writers that only the shared command walker
 * ({@link dev.agentwarden.shell.CommandWalker}) finds: scripts handed on in ways no word of the
 * command shows, and shells reached through a wrapper. The allowed cases stay allowed.
 */
class WardenSelfChangeWalkTest {

    private static final boolean DENY = true;
    private static final boolean ALLOW = false;

    static Stream<Arguments> commands() {
        return Stream.of(
                c("shellAlias", "alias w='bin/warden trust'; w", DENY),
                c("envSplitString", "env -S 'bin/warden trust'", DENY),
                c("suCommandEquals", "su --command='bin/warden init' root", DENY),
                c("pipedToShellThroughSudo", "echo 'bin/warden trust' | sudo sh", DENY),
                c("pipedToShellThroughEnv", "echo 'bin/warden init' | env bash", DENY),
                c("shellScriptComputed", "CMD='bin/warden trust'; sh -c \"$CMD\"", DENY),
                c("aliasOfShow_allowed", "alias w='bin/warden trust --show'; w", ALLOW),
                c("envSplitStringHelp_allowed", "env -S 'bin/warden init --help'", ALLOW),
                c("shellScriptComputedNoMention_allowed", "sh -c \"$CMD\"; bin/warden ledger stats", ALLOW),
                c("pipedToSudoShellNoMention_allowed", "echo 'mvn -q package' | sudo sh", ALLOW));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commands")
    void reasonFor_command(String name, String command, boolean denied) {
        assertThat(WardenSelfChange.reasonFor(command) != null).as(command).isEqualTo(denied);
    }

    private static Arguments c(String name, String command, boolean denied) {
        return Arguments.of(name, command, denied);
    }
}
