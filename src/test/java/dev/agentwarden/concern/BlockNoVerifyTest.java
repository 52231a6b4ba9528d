package dev.agentwarden.concern;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BlockNoVerifyTest {

    @ParameterizedTest(name = "[{0}] -> {1}")
    @CsvSource(delimiter = '|', value = {
        "git commit --no-verify -m x | true",
        "git commit -n -m x | true",
        "git commit -anm x | true",
        "git -C repo commit -n | true",
        "/usr/bin/git push --no-verify | true",
        "git push --no-verify=true | true",
        "cd repo && git commit -nm 'x' | true",
        "echo hi; git commit --no-verify | true",
        "git commit -m x | false",
        "git commit -am x | false",
        "git log -n 3 | false",
        "git commit --amend --no-edit | false",
        "echo --no-verify | false",
        "legit commit -n | false",
        "git status; echo -n hello | false",
        "git commit -m x && ls -n | false",
        "'' | false",
    })
    void skipsHooks_commands(String command, boolean expected) {
        assertThat(BlockNoVerify.skipsHooks(command)).isEqualTo(expected);
    }
}
