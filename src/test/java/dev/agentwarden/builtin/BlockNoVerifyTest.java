package dev.agentwarden.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every case of issue 10 item 22 verbatim (the {@code item22_} names), then the rules behind them:
 * shell tokenizing, wrappers, git's option parsing, hooksPath and hook-manager environment, and
 * what happens to commands that cannot be analysed. The git facts were checked against git 2.39.5
 * (see {@link GitHookBehaviourTest}).
 */
class BlockNoVerifyTest {

    private static final boolean DENY = true;
    private static final boolean ALLOW = false;

    static Stream<Arguments> cases() {
        return Stream.of(
                // Issue 10 item 22, allowed before although hooks are skipped.
                c("item22_uniquePrefix_noVerif", "git commit --no-verif -m x", DENY),
                c("item22_singleQuotedFlag", "git commit '--no-verify' -m x", DENY),
                c("item22_doubleQuotedFlag", "git commit \"--no-verify\" -m x", DENY),
                c("item22_backslashedGit", "\\git commit --no-verify -m x", DENY),
                c("item22_quotedGit", "\"git\" commit --no-verify -m x", DENY),
                c("item22_subshell", "(git commit --no-verify -m x)", DENY),
                c("item22_shDashC", "sh -c 'git commit --no-verify -m x'", DENY),
                c("item22_bashDashC", "bash -c \"git commit --no-verify -m x\"", DENY),
                c("item22_hooksPathOverride", "git -c core.hooksPath=/dev/null commit", DENY),
                c("item22_huskyZero", "HUSKY=0 git commit", DENY),
                // Issue 10 item 22, denied before although legitimate.
                c("item22_messageN", "git commit -mn", ALLOW),
                c("item22_messageMentionsN", "git commit -m \"fix -n flag\"", ALLOW),

                // Plain spellings.
                c("commit_noVerify", "git commit --no-verify -m x", DENY),
                c("commit_shortN", "git commit -n -m x", DENY),
                c("commit_clusterAnm", "git commit -anm x", DENY),
                c("commit_clusterNm", "git commit -nm 'x'", DENY),
                c("commit_nAfterMessage", "git commit -m x -n", DENY),
                c("commit_nAfterPathspec", "git commit -m x file.txt --no-verify", DENY),
                c("commit_amendNoEdit_noVerify", "git commit --amend --no-edit --no-verify", DENY),
                c("commit_noVerifyWithValue", "git commit --no-verify=yes", DENY),
                c("commit_prefixNoVeri", "git commit --no-veri -m x", DENY),
                c("commit_prefixNoVer_ambiguousInGit239_treatedAsSkip", "git commit --no-ver -m x", DENY),
                c("commit_plain", "git commit -m x", ALLOW),
                c("commit_all", "git commit -am x", ALLOW),
                c("commit_amendNoEdit", "git commit --amend --no-edit", ALLOW),
                c("commit_messageValueIsFlag", "git commit -m --no-verify", ALLOW),
                c("commit_longMessageValueIsFlag", "git commit --message --no-verify", ALLOW),
                c("commit_abbreviatedMessageValueIsFlag", "git commit --mess --no-verify", ALLOW),
                c("commit_messageEqualsFlag", "git commit --message=--no-verify", ALLOW),
                c("commit_fileValueIsN", "git commit -F -n", ALLOW),
                c("commit_authorValue", "git commit --author -n -m x", ALLOW),
                c("commit_untrackedModeNo", "git commit -uno -m x", ALLOW),
                c("commit_gpgKeyN", "git commit -Sn -m x", ALLOW),
                c("commit_gpgThenN", "git commit -S -n -m x", DENY),
                c("commit_quietVerboseN", "git commit -qvn -m x", DENY),
                c("commit_reuseMessageN", "git commit -Cn", ALLOW),
                c("commit_pathspecAfterDoubleDash", "git commit -m x -- --no-verify", ALLOW),
                c("commit_endOfOptions", "git commit -m x --end-of-options --no-verify", ALLOW),
                c("commit_verifyUndoes", "git commit --no-verify --verify -m x", ALLOW),
                c("commit_noNoVerifyUndoes", "git commit --no-verify --no-no-verify -m x", ALLOW),
                c("commit_verifyPrefixUndoes", "git commit -n --veri -m x", ALLOW),
                c("commit_noVerifyAfterVerify", "git commit --verify --no-verify -m x", DENY),
                c("commit_ambiguousVerDoesNotUndo", "git commit --no-verify --ver -m x", DENY),
                c("commit_unknownNoverify", "git commit -m x --noverify", ALLOW),
                c("commit_messageHeredocMentionsFlag", "git commit -F - <<'EOF'\nfix: drop --no-verify usage\nEOF", ALLOW),
                c("commit_messageSubstitution", "git commit -m \"$(cat msg.txt)\"", ALLOW),
                c("commit_messageHeredocSubstitution", "git commit -m \"$(cat <<'EOF'\nFix it\n\nNever use --no-verify or -n.\n"
                        + "EOF\n)\"", ALLOW),
                c("commit_messageHeredocSubstitutionThenFlag", "git commit -m \"$(cat <<'EOF'\nFix it\nEOF\n)\" -n", DENY),
                c("prBodyMentionsFlag", "gh pr create --title x --body \"$(cat <<'EOF'\nwe no longer pass --no-verify\nEOF\n)\"",
                        ALLOW),
                c("commit_dryRunFlagDryRun", "git commit --dry-run -m x", ALLOW),

                // Other subcommands.
                c("push_noVerify", "/usr/bin/git push --no-verify", DENY),
                c("push_noVerifyValue", "git push --no-verify=true", DENY),
                c("push_dashNIsDryRun", "git push -n origin main", ALLOW),
                c("push_prefixNoVerif", "git push origin main --no-verif", DENY),
                c("push_forceWithLease", "git push --force-with-lease origin main", ALLOW),
                c("merge_noVerify", "git merge --no-verify feature", DENY),
                c("merge_dashNIsNoStat", "git merge -n feature", ALLOW),
                c("pull_noVerify", "git pull --no-verify origin main", DENY),
                c("pull_rebase", "git pull --rebase origin main", ALLOW),
                c("rebase_noVerify", "git rebase --no-verify main", DENY),
                c("rebase_dashNIsNoStat", "git rebase -n main", ALLOW),
                c("rebase_execSkips", "git rebase -x 'git commit --amend --no-edit --no-verify' main", DENY),
                c("rebase_execLongSkips", "git rebase --exec=\"git commit --amend -n\" main", DENY),
                c("rebase_execRunsTests", "git rebase -x 'mvn -q test' main", ALLOW),
                c("am_shortN", "git am -n 0001.patch", DENY),
                c("log_dashN", "git log -n 3", ALLOW),
                c("unknownSubcommand_aliasWithNoVerify", "git ci --no-verify -m x", DENY),
                c("unknownSubcommand_noVerifyAfterDoubleDash", "git log -- --no-verify", ALLOW),
                c("gitCommitProgram", "$(git --exec-path)/git-commit --no-verify -m x", DENY),
                c("globalOptions_thenCommitN", "git -C repo --no-pager -c user.name=x commit -n", DENY),
                c("globalGitDirSeparate", "git --git-dir .git --work-tree . commit --no-verify", DENY),

                // core.hooksPath and aliases.
                c("hooksPath_anyCase", "git -c CORE.HOOKSPATH=.nohooks commit -m x", DENY),
                c("hooksPath_noValue", "git -c core.hooksPath commit -m x", DENY),
                c("hooksPath_onPush", "git -c core.hooksPath=/tmp/x push", DENY),
                c("hooksPath_configEnv", "git --config-env=core.hooksPath=EMPTY commit -m x", DENY),
                c("hooksPath_configEnvSeparate", "git --config-env core.hookspath=EMPTY commit -m x", DENY),
                c("hooksPath_gitConfigSet", "git config core.hooksPath /dev/null", DENY),
                c("hooksPath_gitConfigLocalSet", "git config --local core.hooksPath .nothing && git commit -m x", DENY),
                c("hooksPath_gitConfigUnset", "git config --unset core.hooksPath", DENY),
                c("hooksPath_gitConfigSetVerb", "git config set core.hooksPath x", DENY),
                c("hooksPath_gitConfigRead", "git config core.hooksPath", ALLOW),
                c("hooksPath_gitConfigGet", "git config --get core.hooksPath", ALLOW),
                c("otherConfigOverride", "git -c user.email=a@b commit -m x", ALLOW),
                c("alias_inlineNoVerify", "git -c alias.ci='commit --no-verify' ci -m x", DENY),
                c("alias_inlineShell", "git -c 'alias.x=!git commit -n' x", DENY),
                c("shellAlias_noVerify", "alias gc='git commit --no-verify'; gc -m x", DENY),
                c("shellAlias_flagAtUse", "alias gc='git commit'; gc -n -m x", DENY),
                c("shellAlias_harmlessUse", "alias gc='git commit'; gc -m x", ALLOW),
                c("alias_flagAtUse", "git -c alias.c=commit c -n -m x", DENY),
                c("alias_harmlessUse", "git -c alias.c=commit c -m x", ALLOW),
                c("function_flagThroughArgs", "gc() { git commit \"$@\"; }; gc -n -m x", DENY),
                c("function_harmlessArgs", "gc() { git commit \"$@\"; }; gc -m x", ALLOW),
                c("hooksPath_includedConfigFile", "git -c include.path=/tmp/x.cfg commit -m x", DENY),
                c("env_otherGlobalConfigFile", "GIT_CONFIG_GLOBAL=/tmp/x.cfg git commit -m x", DENY),
                c("env_emptyGlobalConfigFile", "GIT_CONFIG_GLOBAL=/dev/null git commit -m x", ALLOW),

                // Environment.
                c("env_huskyZeroViaEnv", "env HUSKY=0 git commit -m x", DENY),
                c("env_huskyZeroViaEnvI", "env -i PATH=/usr/bin HUSKY=0 git commit -m x", DENY),
                c("env_huskyOne", "HUSKY=1 git commit -m x", ALLOW),
                c("env_huskyZeroOnNpm", "HUSKY=0 npm ci", ALLOW),
                c("env_huskySkipHooks", "HUSKY_SKIP_HOOKS=1 git commit -m x", DENY),
                c("env_exportedHusky", "export HUSKY=0; git commit -m x", DENY),
                c("env_exportedHuskyNoGit", "export HUSKY=0 && npm ci", ALLOW),
                c("env_preCommitSkip", "SKIP=flake8 git commit -m x", DENY),
                c("env_lefthookOff", "LEFTHOOK=0 git push", DENY),
                c("env_gitConfigParameters", "GIT_CONFIG_PARAMETERS=\"'core.hooksPath'='/dev/null'\" git commit -m x", DENY),
                c("env_gitConfigKey", "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/x git commit", DENY),
                c("env_otherGitConfigKey", "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=x git commit -m x", ALLOW),
                c("env_inheritedIntoShDashC", "HUSKY=0 sh -c 'git commit -m x'", DENY),
                c("env_sudoAssignment", "sudo HUSKY=0 git commit -m x", DENY),

                // Shell syntax.
                c("shell_afterAndAnd", "cd repo && git commit -nm 'x'", DENY),
                c("shell_afterSemicolon", "echo hi; git commit --no-verify", DENY),
                c("shell_afterOrOr", "false || git commit --no-verify", DENY),
                c("shell_pipeline", "git commit --no-verify | cat", DENY),
                c("shell_background", "git push --no-verify & wait", DENY),
                c("shell_newline", "ls\ngit commit --no-verify", DENY),
                c("shell_braceGroup", "{ git commit --no-verify; }", DENY),
                c("shell_ifThen", "if true; then git commit --no-verify; fi", DENY),
                c("shell_forLoop", "for f in a b; do git commit -n -m \"$f\"; done", DENY),
                c("shell_commandSubstitution", "echo $(git commit --no-verify -m x)", DENY),
                c("shell_backticks", "echo `git commit --no-verify -m x`", DENY),
                c("shell_substitutionInQuotes", "echo \"result: $(git push --no-verify)\"", DENY),
                c("shell_processSubstitution", "cat <(git commit --no-verify)", DENY),
                c("shell_splitQuotes", "git commit --no-ver''ify -m x", DENY),
                c("shell_splitQuotesInGit", "g\"i\"t commit -n -m x", DENY),
                c("shell_ansiCQuote", "git commit $'--no-verif\\x79' -m x", DENY),
                c("shell_ansiCOctal", "git commit $'\\055n' -m x", DENY),
                c("shell_escapedDash", "git commit \\-\\-no-verify -m x", DENY),
                c("shell_lineContinuation", "git commit \\\n  --no-verify -m x", DENY),
                c("shell_commentIgnored", "git commit -m x # --no-verify", ALLOW),
                c("shell_hashInsideWord", "git commit -m x#1 --no-verify", DENY),
                c("shell_redirectTargetIsNoArgument", "git commit -m x 2> --no-verify", ALLOW),
                c("shell_heredocBodyIsData", "cat > notes.md <<'EOF'\ngit commit --no-verify\nEOF\ngit commit -m x", ALLOW),
                c("shell_heredocToShell", "bash <<EOF\ngit commit --no-verify -m x\nEOF", DENY),
                c("shell_hereStringToShell", "sh <<< 'git commit -n -m x'", DENY),
                c("shell_unquotedHeredocSubstitution", "cat <<EOF\n$(git commit --no-verify)\nEOF", DENY),
                c("shell_nestedShDashC", "sh -c \"bash -c 'git commit --no-verify'\"", DENY),
                c("shell_loginCombinedFlag", "bash -lc 'git commit --no-verify'", DENY),
                c("shell_errexitCombinedFlag", "sh -ec 'cd x; git commit -n'", DENY),
                c("shell_optionBeforeC", "bash -o pipefail -c 'git commit -n'", DENY),
                c("shell_absoluteShellPath", "/bin/sh -c 'git push --no-verify'", DENY),
                c("shell_dashCPositional", "sh -c '\"$@\"' sh git commit --no-verify", DENY),
                c("shell_eval", "eval 'git commit --no-verify -m x'", DENY),
                c("shell_evalJoined", "eval git commit --no-verify", DENY),
                c("shell_functionBody", "f() { git commit --no-verify; }; f", DENY),
                c("shell_arithmeticHarmless", "echo $((1+2)); git commit -m x", ALLOW),

                // Wrappers.
                c("wrapper_command", "command git commit --no-verify", DENY),
                c("wrapper_exec", "exec git commit -n -m x", DENY),
                c("wrapper_sudo", "sudo -u dev git push --no-verify", DENY),
                c("wrapper_nohupTime", "nohup time git commit --no-verify", DENY),
                c("wrapper_timeout", "timeout 60 git push --no-verify", DENY),
                c("wrapper_nice", "nice -n 10 git commit -n", DENY),
                c("wrapper_xargsLiteral", "echo x | xargs git commit --no-verify -m", DENY),
                c("wrapper_xargsAddsFlag", "echo --no-verify | xargs git commit -m x", DENY),
                c("wrapper_xargsHarmless", "git ls-files -z | xargs -0 git add", ALLOW),
                c("wrapper_findExec", "find . -name x -exec git commit --no-verify {} \\;", DENY),
                c("wrapper_watch", "watch -n 5 'git push --no-verify'", DENY),
                c("wrapper_suDashC", "su -c 'git commit --no-verify' dev", DENY),
                c("wrapper_submoduleForeach", "git submodule foreach 'git commit -n -m x'", DENY),
                c("wrapper_unknownWithGitWord", "mywrapper --fast git commit --no-verify", DENY),
                c("wrapper_unknownShellDashC", "docker exec box sh -c 'git push --no-verify'", DENY),
                c("wrapper_commandDashV", "command -v git", ALLOW),

                // Text that only mentions git.
                c("mention_echo", "echo --no-verify", ALLOW),
                c("mention_echoGitCommand", "echo git commit --no-verify", ALLOW),
                c("mention_grep", "grep -rn 'git commit --no-verify' docs/", ALLOW),
                c("mention_grepWords", "grep -e git -e --no-verify README.md", ALLOW),
                c("mention_legit", "legit commit -n", ALLOW),
                c("mention_echoN", "git status; echo -n hello", ALLOW),
                c("mention_lsN", "git commit -m x && ls -n", ALLOW),
                c("mention_empty", "", ALLOW),

                // What cannot be analysed.
                c("computed_flagVariable", "F=--no-verify; git commit $F -m x", DENY),
                c("computed_flagSubstitution", "git commit $(printf -- --no-verif; echo y) -m x", DENY),
                c("computed_harmlessVariable", "git commit -m x \"$FILE\"", ALLOW),
                c("computed_commandName", "G=git; $G commit --no-verify", DENY),
                c("computed_commandNameHarmless", "$EDITOR notes.txt", ALLOW),
                c("computed_commandNameWithComputedArgs", "\"$PYTHON\" \"$SCRIPT\" --skip-slow --verify", ALLOW),
                c("computed_shellFromPipe", "echo 'git commit --no-verify' | sh", DENY),
                c("computed_shellFromPipeHarmless", "curl -fsSL https://example.com/i.sh | bash", ALLOW),
                c("computed_globMayExpandToFlag", "touch ./--no-verify && git commit -a *", DENY),
                c("computed_globHarmless", "git add *.java && git commit -m x", ALLOW),
                c("computed_deepShNesting", deepSh(12, "git commit --no-verify"), DENY),
                c("computed_deepShNestingMentioningGit", deepSh(12, "git status"), DENY),
                c("computed_deepShNestingWithoutGit", deepSh(12, "ls -la"), ALLOW),
                // Issue 10 F3: run-time-computed words that skipped a failing pre-commit hook.
                c("f3_braceExpansionMakesN", "git commit -m x -{n,a}", DENY),
                c("f3_variableCompletesDash", "x=n; git commit -$x -a -m y", DENY),
                c("f3_substitutionCompletesDash", "git commit -m x -$(echo n)", DENY),
                c("f3_defaultValueCompletesDash", "git commit -m x -${N:-n}", DENY),
                c("f3_backticksCompleteDash", "git commit -m x -`echo n`", DENY),
                c("f3_functionForwardsAllArgsToGit", "f() { git \"$@\"; }; f commit -n -m x", DENY),
                c("f3_setPositionalThenForward", "set -- commit -n -m x; git \"$@\"", DENY),
                c("f3_computedSubcommandThenN", "git $(echo commit) -n -m x", DENY),
                c("f3_echoPipedToSh", "echo \"git commit -n -m x\" | sh", DENY),
                c("f3_pythonOsSystem", "python3 -c 'import os; os.system(\"git commit -n -m x\")'", DENY),
                c("f3_perlSystem", "perl -e 'system(\"git commit --no-verify -m x\")'", DENY),
                c("f3_nodeExecSync", "node -e 'require(\"child_process\").execSync(\"git commit -n -m x\")'", DENY),
                c("f3_rubyHooksPath", "ruby -e 'system(\"git -c core.hooksPath=/dev/null commit -m x\")'", DENY),
                c("f3_pythonHeredoc", "python3 - <<'EOF'\nimport subprocess\nsubprocess.run(['git','commit','-n'])\nEOF", DENY),
                c("f3_braceSequenceMakesN", "git commit -m x -{n..n}", DENY),
                c("f3_braceSequenceMessageTakesN", "git commit -m x -{l..n}", ALLOW),
                c("f3_clusterCompletedAfterA", "git commit -a$X -m x", DENY),
                c("f3_longPrefixCompleted", "git commit -m x --no-$V", DENY),
                c("f3_computedSubcommandPushNoVerify", "git $SUB --no-verify", DENY),
                c("f3_harmlessBraceExpansion", "git add src/{a,b}.txt && git commit -m x", ALLOW),
                c("f3_braceInMessage", "git commit -m '{n,a}'", ALLOW),
                c("f3_messageAttachedComputed", "git commit -m\"$MSG\"", ALLOW),
                c("f3_messageValueComputed", "git commit -m \"-$MSG\"", ALLOW),
                c("f3_authorComputed", "git commit --author=\"$AUTHOR\" -m x", ALLOW),
                c("f3_fixupComputed", "git commit --fixup \"$SHA\"", ALLOW),
                c("f3_pythonHarmlessGit", "python3 -c 'import os; os.system(\"git commit -m x\")'", ALLOW),
                c("f3_pythonScriptFile", "python3 tools/release.py -n 3", ALLOW),
                c("f3_echoNPipedToShNoGit", "echo -n hi | sh", ALLOW),
                c("f3_forwardingFunctionHarmless", "f() { git \"$@\"; }; f status", ALLOW),
                c("computed_deepSubstitution", "echo " + "$(".repeat(40) + "git commit --no-verify" + ")".repeat(40), DENY));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void skipsHooks_command(String name, String command, boolean denied) {
        assertThat(BlockNoVerify.skipsHooks(command)).as(command).isEqualTo(denied);
    }

    @Test
    void reasonFor_plainNoVerify_keepsTheSentenceHostsShow() {
        assertThat(HookBypass.reasonFor("git commit --no-verify -m wip"))
                .isEqualTo("git hooks must not be skipped: remove --no-verify / -n and fix what the hook reports");
    }

    @Test
    void reasonFor_abbreviation_namesTheWordAndSubcommand() {
        assertThat(HookBypass.reasonFor("git push --no-verif"))
                .isEqualTo("git hooks must not be skipped: remove --no-verif (git reads it as --no-verify) from git push"
                        + " and fix what the hook reports");
    }

    @Test
    void reasonFor_hooksPathOverride_namesTheSetting() {
        assertThat(HookBypass.reasonFor("git -c core.hooksPath=/dev/null commit"))
                .contains("-c core.hooksPath=/dev/null").contains("points git away from the repository's hooks");
    }

    @Test
    void reasonFor_huskyEnvironment_namesTheVariable() {
        assertThat(HookBypass.reasonFor("HUSKY=0 git commit")).contains("HUSKY=0").contains("husky");
    }

    @Test
    void reasonFor_foundTextWithControlCharacters_isQuotedSafely() {
        String reason = HookBypass.reasonFor("git -c $'core.hooksPath=\n\u001b[2J" + "x".repeat(100) + "' commit");

        assertThat(reason).doesNotContain("\n").doesNotContain("").contains("core.hooksPath=??[2J").contains("…");
    }

    @Test
    void reasonFor_indirectCommandMentioningNoVerify_saysWhyItWasNotChecked() {
        assertThat(HookBypass.reasonFor("F=--no-verify; git commit $F"))
                .contains("too indirect to check").contains("computed at run time").contains("\"verif\"");
    }

    @Test
    void reasonFor_shScriptsNestedPastTheCap_areRefusedWhenTheyMentionGit() {
        assertThat(HookBypass.reasonFor(deepSh(HookBypass.MAX_SCRIPT_DEPTH + 2, "git commit -n")))
                .contains("too complex to check").contains("nest deeper than " + HookBypass.MAX_SCRIPT_DEPTH);
        assertThat(HookBypass.reasonFor(deepSh(HookBypass.MAX_SCRIPT_DEPTH - 1, "git commit -n")))
                .isEqualTo("git hooks must not be skipped: remove --no-verify / -n and fix what the hook reports");
    }

    @Test
    void reasonFor_commandOverTheLengthCap_isRefusedOnlyWhenItMentionsGitAndABypass() {
        String padding = "echo " + "x".repeat(HookBypass.MAX_COMMAND_CHARS) + "; ";

        assertThat(HookBypass.reasonFor(padding + "git commit --no-verify")).contains("too long to check");
        assertThat(HookBypass.reasonFor(padding + "git commit -m x")).isNull();
        assertThat(HookBypass.reasonFor(padding + "echo --no-verify")).isNull();
    }

    @Test
    void reasonFor_heredocOfMaximalLength_isParsedInBoundedTime() {
        StringBuilder b = new StringBuilder("cat > notes.md <<'EOF'\n");
        while (b.length() < HookBypass.MAX_COMMAND_CHARS - 100) {
            b.append("docs: never run git commit --no-verify; $(x) `y` \"z\n");
        }
        b.append("EOF\ngit commit -m docs");

        assertThat(HookBypass.reasonFor(b.toString())).isNull();
    }

    private static Arguments c(String name, String command, boolean denied) {
        return Arguments.of(name, command, denied);
    }

    /** {@code sh -c '…'} nested {@code levels} deep, quoting each level with backslashes. */
    static String deepSh(int levels, String inner) {
        String script = inner;
        for (int i = 0; i < levels; i++) {
            StringBuilder quoted = new StringBuilder("sh -c \"");
            for (int k = 0; k < script.length(); k++) {
                char ch = script.charAt(k);
                if (ch == '"' || ch == '\\' || ch == '$' || ch == '`') {
                    quoted.append('\\');
                }
                quoted.append(ch);
            }
            script = quoted.append('"').toString();
        }
        return script;
    }
}
