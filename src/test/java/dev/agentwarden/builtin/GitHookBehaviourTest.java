package dev.agentwarden.builtin;

import dev.agentwarden.testing.WardenProcess;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs each command with real bash and git in a repository whose pre-commit hook fails, and checks
 * that block-no-verify refuses exactly the commands that got a commit past the hook. Skipped when
 * bash or git is missing.
 */
class GitHookBehaviourTest {

    @TempDir
    static Path dir;

    private static Path repo;
    private static Path marker;

    @BeforeAll
    static void repositoryWithFailingHook() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")) && run(dir, "git --version").exitCode == 0,
                "needs bash and git");
        repo = dir.resolve("repo");
        marker = dir.resolve("hook-ran");
        Files.createDirectories(repo);
        assertThat(run(repo, "git init -q . && git config user.email t@example.com && git config user.name t"
                + " && git config commit.gpgsign false && git commit -q --allow-empty -m base").exitCode).isZero();
        Path hook = repo.resolve(".git/hooks/pre-commit");
        Files.createDirectories(hook.getParent());
        WardenProcess.writeScript(hook, "#!/bin/sh\ntouch '" + marker + "'\nexit 1\n", "rwx------");
        Files.writeString(dir.resolve("hooks-off.cfg"), "[core]\n\thooksPath = /dev/null\n");
    }

    static Stream<Arguments> commands() {
        return Stream.of(
                "git commit --no-verif -m x",
                "git commit --no-veri -m x",
                "git commit '--no-verify' -m x",
                "\\git commit --no-verify -m x",
                "\"git\" commit --no-verify -m x",
                "(git commit --no-verify -m x)",
                "sh -c 'git commit --no-verify -m x'",
                "bash -c \"git commit -n -m x\"",
                "git -c core.hooksPath=/dev/null commit -m x",
                "git commit -mn",
                "git commit -m \"fix -n flag\"",
                "git commit -anm x",
                "git commit -m x -n",
                "git commit -m --no-verify",
                "git commit --mess --no-verify",
                "git commit -uno -m x",
                "git commit --no-verify --verify -m x",
                "git commit --no-verify --no-no-verify -m x",
                "git commit -n --veri -m x",
                "git commit -m x # --no-verify",
                "git commit $'--no-verif\\x79' -m x",
                "g''it commit -n -m x",
                "F=--no-verify; git commit $F -m x",
                "echo --no-verify | xargs git commit -m x",
                "git -c alias.ci='commit --no-verify' ci -m x",
                "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/dev/null git commit -m x",
                "GIT_CONFIG_PARAMETERS=\"'core.hooksPath'='/dev/null'\" git commit -m x",
                "cat <<'EOF' > ../notes.txt\ngit commit --no-verify\nEOF\ngit commit -m x",
                "eval 'git commit --no-verify -m x'",
                "bash <<EOF\ngit commit -n -m x\nEOF",
                "git -c alias.c=commit c -n -m x",
                "shopt -s expand_aliases\nalias gc='git commit'\ngc -n -m x",
                "gc() { git commit \"$@\"; }; gc -n -m x",
                "gc() { git commit \"$@\"; }; gc -m x",
                "git -c include.path=\"$WARDEN_CFG\" commit -m x",
                "GIT_CONFIG_GLOBAL=\"$WARDEN_CFG\" git commit -m x",
                // Issue 10 F3.
                "git commit -m x -{n,a}",
                "x=n; git commit -$x -a -m y",
                "git commit -m x -$(echo n)",
                "git commit -m x -${N:-n}",
                "git commit -m x -`echo n`",
                "f() { git \"$@\"; }; f commit -n -m x",
                "set -- commit -n -m x; git \"$@\"",
                "git $(echo commit) -n -m x",
                "echo \"git commit -n -m x\" | sh",
                "git commit -m x -{q,v}",
                "git commit -m \"$(echo -n x)\"").map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commands")
    void skipsHooks_agreesWithRealGit(String command) throws Exception {
        Files.deleteIfExists(marker);
        Result r = run(repo, "echo change >> file && git add file && before=$(git rev-parse HEAD)"
                + " && bash -c \"$WARDEN_CASE\" >/dev/null 2>&1; [ \"$before\" != \"$(git rev-parse HEAD)\" ]",
                Map.of("WARDEN_CASE", command, "WARDEN_CFG", dir.resolve("hooks-off.cfg").toString()));
        boolean gitSkippedHook = r.exitCode == 0 && !Files.exists(marker);

        assertThat(BlockNoVerify.skipsHooks(command)).as("%s (git skipped the hook: %s)", command, gitSkippedHook)
                .isEqualTo(gitSkippedHook);
    }

    private static Result run(Path cwd, String script) throws IOException, InterruptedException {
        return run(cwd, script, Map.of());
    }

    private static Result run(Path cwd, String script, Map<String, String> extraEnv)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("/bin/bash", "-c", script).directory(cwd.toFile())
                .redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.put("HOME", dir.toString());
        env.put("GIT_CONFIG_NOSYSTEM", "1");
        env.put("GIT_CONFIG_GLOBAL", "/dev/null");
        env.put("GIT_EDITOR", "true");
        env.put("LC_ALL", "C");
        env.keySet().removeIf(k -> k.startsWith("GIT_") && !k.equals("GIT_CONFIG_NOSYSTEM")
                && !k.equals("GIT_CONFIG_GLOBAL") && !k.equals("GIT_EDITOR"));
        env.putAll(extraEnv);
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + script);
        }
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    private record Result(int exitCode, String output) {
    }
}
