package dev.agentwarden.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 10 F5: the governed agent approving its own manifest ({@code sed -i … manifest.yaml &&
 * bin/warden trust}) or rewriting Warden's state or the hosts' hook settings through a tool call.
 */
class ProtectWardenTest {

    private static final boolean DENY = true;
    private static final boolean ALLOW = false;

    private static final Map<String, String> ENV = Map.of("HOME", "/home/dev", "XDG_CACHE_HOME", "/home/dev/.cache");

    static Stream<Arguments> commands() {
        return Stream.of(
                c("f5_sedManifestThenTrust", "sed -i /block-no-verify/d .warden/manifest.yaml && bin/warden trust", DENY),
                c("trust_plainName", "warden trust", DENY),
                c("trust_dotSlashPath", "./bin/warden trust --project-dir .", DENY),
                c("trust_absolutePath", "/opt/agent-warden/bin/warden trust", DENY),
                c("install_claude", "bin/warden install --host claude", DENY),
                c("uninstall", "bin/warden uninstall --host codex", DENY),
                c("trust_revoke", "bin/warden trust --revoke", DENY),
                c("trust_viaEnv", "env FOO=1 bin/warden trust", DENY),
                c("trust_viaNohup", "nohup bin/warden trust", DENY),
                c("trust_javaMain", "java -cp target/warden.jar dev.agentwarden.Main trust", DENY),
                c("trust_javaJar", "java -jar target/warden.jar trust", DENY),
                c("trust_shDashC", "sh -c 'cd /x && bin/warden trust'", DENY),
                c("trust_bashLc", "bash -lc \"bin/warden install --host claude\"", DENY),
                c("trust_eval", "eval 'bin/warden trust'", DENY),
                c("trust_heredocToShell", "bash <<EOF\nbin/warden trust\nEOF", DENY),
                c("trust_pipedToShell", "echo 'bin/warden trust' | sh", DENY),
                c("trust_python", "python3 -c 'import subprocess; subprocess.run([\"bin/warden\", \"trust\"])'", DENY),
                c("trust_computedProgram", "W=bin/warden; $W trust", DENY),
                c("trust_computedSubcommand", "bin/warden $(echo trust)", DENY),
                c("trust_inSubstitution", "echo $(bin/warden trust)", DENY),
                c("issue28_initAfterRemovingTheManifest", "rm -f .warden/manifest.yaml && bin/warden init", DENY),
                c("issue28_initWithHostMarkersUnset", "env -u CLAUDECODE -u CLAUDE_CODE_ENTRYPOINT bin/warden init", DENY),
                c("init_shDashC", "sh -c 'warden init'", DENY),
                c("init_absolutePath", "/opt/agent-warden/bin/warden init --project-dir /home/dev/proj", DENY),
                c("init_npx", "npx warden init", DENY),
                c("init_npxPackageName", "npx -y agent-warden init", DENY),
                c("init_versionedJar", "java -jar target/warden-0.1.0-SNAPSHOT.jar init", DENY),
                c("init_afterGlobalOption", "bin/warden --verbose init", DENY),
                c("init_computedSubcommand", "c=init; bin/warden $c", DENY),
                c("init_pipedToShell", "echo 'bin/warden init' | bash", DENY),
                c("trainArchive_trustsItsProject", "bin/warden train-archive", DENY),
                c("init_noTrust_writesNoTrust", "bin/warden init --no-trust", ALLOW),
                c("init_help", "bin/warden init --help", ALLOW),
                c("gitInit_isNotWarden", "git init && echo warden", ALLOW),
                c("trust_show", "bin/warden trust --show", ALLOW),
                c("trust_help", "bin/warden trust --help", ALLOW),
                c("dispatch", "bin/warden dispatch --host claude", ALLOW),
                c("ledgerStats", "bin/warden ledger stats", ALLOW),
                c("lint", "bin/warden manifest lint .warden/manifest.yaml", ALLOW),
                c("mention_echo", "echo 'run bin/warden trust yourself'", ALLOW),
                c("mention_grep", "grep -rn 'warden trust' README.md", ALLOW),
                c("mention_commitMessage", "git commit -m 'docs: explain bin/warden trust'", ALLOW),
                c("mention_npmInstall", "npm install && mvn -q package", ALLOW),
                c("empty", "", ALLOW));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commands")
    void reasonFor_command(String name, String command, boolean denied) {
        assertThat(WardenSelfChange.reasonFor(command) != null).as(command).isEqualTo(denied);
    }

    static Stream<Arguments> paths() {
        return Stream.of(
                c("trustStore", "/home/dev/.local/state/agent-warden/trust/abc.json", DENY),
                c("stateDirTilde", "~/.local/state/agent-warden/release/x.json", DENY),
                c("stateDirDotDot", "/home/dev/proj/../.local/state/agent-warden/trust/abc.json", DENY),
                c("cacheDir", "/home/dev/.cache/agent-warden/manifests/x.bin", DENY),
                c("projectClaudeSettings", ".claude/settings.json", DENY),
                c("projectClaudeLocalSettings", "/home/dev/proj/.claude/settings.local.json", DENY),
                c("userClaudeSettings", "/home/dev/.claude/settings.json", DENY),
                c("codexHooks", ".codex/hooks.json", DENY),
                c("userCodexHooks", "~/.codex/hooks.json", DENY),
                c("openCodeBridgePlugin_editedByTheAgent", ".opencode/plugin/warden-bridge.js", DENY),
                c("userOpenCodeBridgePlugin", "~/.config/opencode/plugin/warden-bridge.js", DENY),
                c("bridgePluginByAbsolutePath", "/home/dev/proj/.opencode/plugin/warden-bridge.js", DENY),
                c("otherOpenCodePlugin", ".opencode/plugin/mine.js", ALLOW),
                c("projectManifestNeedsTrustAnyway", ".warden/manifest.yaml", ALLOW),
                c("sourceFile", "src/main/java/App.java", ALLOW),
                c("otherStateDir", "/home/dev/.local/state/other/x", ALLOW),
                c("claudeAgentsFile", ".claude/agents/reviewer.md", ALLOW),
                c("codexConfigElsewhere", "docs/hooks.json", ALLOW),
                c("issue28_codexProjectTrust", "~/.codex/config.toml", DENY),
                c("codexProjectConfig", ".codex/config.toml", DENY),
                c("issue28_copilotTrustedFolders", "/home/dev/.copilot/config.json", DENY),
                c("qwenFolderTrust", "~/.qwen/trustedFolders.json", DENY),
                c("augmentLocalSettings", ".augment/settings.local.json", DENY),
                c("otherConfigToml", "config.toml", ALLOW),
                c("otherConfigJson", ".vscode/config.json", ALLOW));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("paths")
    void reasonForPath_edit(String name, String path, boolean denied) {
        assertThat(ProtectWarden.reasonForPath(path, "/home/dev/proj", ENV) != null).as(path).isEqualTo(denied);
    }

    @Test
    void reasonFor_trust_tellsTheUserToRunItThemselves() {
        assertThat(WardenSelfChange.reasonFor("sed -i /block-no-verify/d .warden/manifest.yaml && bin/warden trust"))
                .isEqualTo("Warden's own trust and hooks are the user's to change: the command runs bin/warden trust;"
                        + " ask the user to run it themselves, in their own terminal");
    }

    @Test
    void reasonForPath_stateDirFollowsXdgStateHome() {
        Map<String, String> env = Map.of("HOME", "/home/dev", "XDG_STATE_HOME", "/srv/state");

        assertThat(ProtectWarden.reasonForPath("/srv/state/agent-warden/trust/x.json", "/p", env))
                .contains("Warden's state directory").contains("in their own terminal");
        assertThat(ProtectWarden.reasonForPath("/home/dev/.local/state/agent-warden/trust/x.json", "/p", env)).isNull();
    }

    /**
     * Issue 28 item 7: a file a host's trust gate reads, where the environment moved it
     * ({@code $CODEX_HOME}, {@code $COPILOT_HOME}, {@code GEMINI_CLI_TRUSTED_FOLDERS_PATH}), is refused,
     * named as that host's trust in its hooks; the same name outside that environment is not.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("gateFiles")
    void reasonForPath_hostTrustFile_whereTheEnvironmentPutsIt(String host, String variable, String value, String file) {
        Map<String, String> env = Map.of("HOME", "/home/dev", variable, value);

        assertThat(ProtectWarden.reasonForPath(file, "/home/dev/proj", env))
                .contains(host + "'s trust in its hooks").contains("in their own terminal");
        assertThat(ProtectWarden.reasonForPath(file, "/home/dev/proj", ENV)).isNull();
    }

    static Stream<Arguments> gateFiles() {
        return Stream.of(
                Arguments.of("Codex", "CODEX_HOME", "/srv/codex", "/srv/codex/config.toml"),
                Arguments.of("Copilot CLI", "COPILOT_HOME", "/srv/copilot", "/srv/copilot/config.json"),
                Arguments.of("Gemini CLI", "GEMINI_CLI_TRUSTED_FOLDERS_PATH", "/srv/gemini-trust.json", "/srv/gemini-trust.json"));
    }

    /** Each host's own files (its Host record's ownFiles) are named as before they moved onto the record. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("ownFiles")
    void reasonForPath_hostsOwnFile_isNamedAsTheHostRecordSays(String path, String what) {
        assertThat(ProtectWarden.reasonForPath(path, "/home/dev/proj", ENV))
                .isEqualTo(ProtectWarden.PREFIX + HookBypass.quote(path) + " is " + what
                        + "; ask the user to make the change themselves, in their own terminal");
    }

    static Stream<Arguments> ownFiles() {
        return Stream.of(
                Arguments.of("docs/.claude/settings.team.json", "Claude Code's hook settings"),
                Arguments.of("sub/.codex/hooks.json", "Codex's hook settings"),
                Arguments.of("x/plugin/warden-bridge.js", "Warden's bridge plugin (OpenCode)"),
                Arguments.of(".clinerules/hooks/PreToolUse", "a Cline hook file"),
                Arguments.of("/home/dev/.cline/hooks/anything.sh", "a Cline hook file"),
                Arguments.of(".gemini/trustedFolders.json", "Gemini CLI's hook settings or trust"),
                Arguments.of("/home/dev/.gemini/trusted_hooks.json", "Gemini CLI's hook settings or trust"),
                Arguments.of(".github/hooks/warden.json", "Copilot CLI's hook settings"),
                Arguments.of("~/.copilot/hooks/mine.json", "Copilot CLI's hook settings"),
                Arguments.of("~/.copilot/config.json", "Copilot CLI's configuration (its trustedFolders)"),
                Arguments.of("/home/dev/.codex/config.toml",
                        "Codex's configuration (hooks on or off, project trust, hook review)"));
    }

    private static Arguments c(String name, String input, boolean denied) {
        return Arguments.of(name, input, denied);
    }
}
