package dev.agentwarden.install.codex;

import dev.agentwarden.install.HookLauncher;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.codex.CodexHost;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.SettingsFile.SettingsException;
import dev.agentwarden.install.codex.CodexSetup;
import dev.agentwarden.toml.MiniToml;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Codex's {@code /etc/codex/requirements.toml} as {@code install --scope managed --host codex} edits it (issue 26 item 3). */
class CodexRequirementsFileTest {
    private static final String LAUNCHER = "/opt/agent-warden/bin/warden";
    private static final String ADMIN = """
            # Fleet requirements, owned by IT
            allowed_approval_policies = ["on-request", "never"]

            [[hooks.PreToolUse]]
            matcher = "Bash"
            [[hooks.PreToolUse.hooks]]
            type = "command"
            command = "/usr/local/bin/audit-bash"
            """;

    private final Installer managed = CodexSetup.CODEX.installer(Host.Scope.MANAGED);

    private static List<Installer.Binding> bindings() {
        return List.of(new Installer.Binding("PreToolUse", "*"), new Installer.Binding("SessionStart", null));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    @Test
    void theFile_isFixedByTheHost_andIsToml() {
        assertThat(managed.settingsFile(Path.of("/p"), Map.of("CODEX_HOME", "/x"))).isEqualTo(Path.of("/etc/codex/requirements.toml"));
        assertThat(managed.writesToml()).isTrue();
    }

    @Test
    void install_appendsOneMarkedBlock_pinningHooksOn_andUninstallGivesTheFileBackByteForByte() throws Exception {
        byte[] original = bytes(ADMIN);
        byte[] installed = managed.install(original, HookLauncher.plain(LAUNCHER), bindings());
        String t = text(installed);

        assertThat(t).startsWith(ADMIN + "\n" + CodexRequirementsFile.BEGIN + "\n[features]\nhooks = true\n\n[[hooks.PreToolUse]]\n"
                + "matcher = \"*\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\n"
                + "command = \"/opt/agent-warden/bin/warden dispatch --host codex --native-event PreToolUse\"\ntimeout = 60\n\n"
                + "[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\n");
        assertThat(t).endsWith(CodexRequirementsFile.END + "\n");
        assertThat(managed.installedEvents(installed)).containsExactly("PreToolUse", "SessionStart");
        assertThat(managed.entries(installed).get(0).launcher()).isEqualTo(LAUNCHER);
        assertThat(MiniToml.parse(t)).as("still TOML that a reader takes").containsKey("features");
        assertThat(managed.install(installed, HookLauncher.plain(LAUNCHER), bindings())).as("idempotent").isEqualTo(installed);
        assertThat(managed.uninstall(installed)).isEqualTo(original);
    }

    @Test
    void byteForByte_forAFileWithoutAFinalNewline_anEmptyFile_andOneEndingInABlankLine() throws Exception {
        for (String admin : List.of("", "allow_managed_hooks_only = false", "x = 1\n\n", "[features]\nshell_snapshot = true")) {
            byte[] original = bytes(admin);
            byte[] installed = managed.install(original, HookLauncher.plain(LAUNCHER), bindings());
            assertThat(managed.uninstall(installed)).as("[%s]", admin).isEqualTo(original);
        }
    }

    @Test
    void anAdministratorsFeaturesTable_getsWardensMarkedPinLine_whichUninstallTakesOut() throws Exception {
        String admin = "[features]\nshell_snapshot = true\n";
        byte[] installed = managed.install(bytes(admin), HookLauncher.plain(LAUNCHER), bindings());
        String t = text(installed);

        assertThat(t).startsWith("[features]\n" + CodexRequirementsFile.PIN + "\nshell_snapshot = true\n");
        assertThat(t).doesNotContain(CodexRequirementsFile.BEGIN + "\n[features]");
        assertThat(t.lines().filter("[features]"::equals)).as("one [features] table").hasSize(1);
        assertThat(managed.uninstall(installed)).isEqualTo(bytes(admin));
    }

    @Test
    void anAdministratorsOwnHooksTrue_isLeft_andTheirFalse_isRefused() throws Exception {
        String pinned = "[features]\nhooks = true\n";
        byte[] installed = managed.install(bytes(pinned), HookLauncher.plain(LAUNCHER), bindings());
        assertThat(text(installed)).doesNotContain(CodexRequirementsFile.PIN).doesNotContain(CodexRequirementsFile.BEGIN + "\n[features]");
        assertThat(managed.uninstall(installed)).isEqualTo(bytes(pinned));

        assertThatThrownBy(() -> managed.install(bytes("[features]\nhooks = false\n"), HookLauncher.plain(LAUNCHER), bindings()))
                .isInstanceOf(SettingsException.class).hasMessageContaining("[features] hooks is not true");
        assertThatThrownBy(() -> managed.install(bytes("features = { hooks = true }\n"), HookLauncher.plain(LAUNCHER), bindings()))
                .isInstanceOf(SettingsException.class).hasMessageContaining("[features] table");
    }

    @Test
    void hooksInAFormAnArrayOfTablesCannotJoin_areRefused() {
        for (String admin : List.of("hooks = {}\n", "[hooks]\nPreToolUse = []\n", "[hooks.PreToolUse]\nmatcher = \"x\"\n")) {
            assertThatThrownBy(() -> managed.install(bytes(admin), HookLauncher.plain(LAUNCHER), bindings())).as(admin)
                    .isInstanceOf(SettingsException.class).hasMessageContaining("hooks.PreToolUse");
        }
    }

    @Test
    void anEditedBlock_isNotWardens_installRefusesIt_andUninstallLeavesIt() throws Exception {
        byte[] installed = managed.install(bytes(ADMIN), HookLauncher.plain(LAUNCHER), bindings());
        byte[] edited = bytes(text(installed).replace("timeout = 60", "timeout = 5"));

        assertThatThrownBy(() -> managed.install(edited, HookLauncher.plain(LAUNCHER), bindings()))
                .isInstanceOf(SettingsException.class).hasMessageContaining("not exactly what Warden writes");
        assertThat(managed.uninstall(edited)).isSameAs(edited);
        assertThat(managed.installedEvents(edited)).isEmpty();
    }

    @Test
    void aLookalikeOutsideTheBlock_isTheAdministrators_andStays() throws Exception {
        String admin = ADMIN.replace("/usr/local/bin/audit-bash",
                "/opt/agent-warden/bin/warden dispatch --host codex --native-event PreToolUse --verbose");
        byte[] installed = managed.install(bytes(admin), HookLauncher.plain(LAUNCHER), bindings());

        assertThat(managed.lookalikes(installed)).hasSize(1);
        assertThat(managed.uninstall(installed)).isEqualTo(bytes(admin));
    }

    @Test
    void managedOnly_addsAMarkedLineFirst_leavesTheAdministratorsTrue_refusesTheirFalse() throws Exception {
        byte[] hooked = managed.install(bytes(ADMIN), HookLauncher.plain(LAUNCHER), bindings());
        byte[] only = managed.managedHooksOnly(hooked);

        assertThat(text(only)).startsWith(CodexRequirementsFile.MANAGED_ONLY_LINE + "\n# Fleet requirements");
        assertThat(managed.managedHooksOnly(only)).isSameAs(only);
        assertThat(managed.withoutManagedHooksOnly(managed.uninstall(only))).isEqualTo(bytes(ADMIN));
        assertThat(managed.withoutManagedHooksOnly(hooked)).as("nothing of Warden's to take").isSameAs(hooked);

        byte[] theirs = bytes("allow_managed_hooks_only = true\n");
        assertThat(managed.managedHooksOnly(theirs)).isSameAs(theirs);
        assertThatThrownBy(() -> managed.managedHooksOnly(bytes("allow_managed_hooks_only = false\n")))
                .isInstanceOf(SettingsException.class).hasMessageContaining("allow_managed_hooks_only");
    }

    @Test
    void aLauncherPathWithQuotes_isEscapedAsTomlAndRecognisedBack() throws Exception {
        String odd = "/opt/a \"w\"\\x/bin/warden";
        byte[] installed = managed.install(new byte[0], HookLauncher.plain(odd), bindings());

        assertThat(managed.entries(installed)).extracting(Installer.Entry::launcher).containsOnly(odd);
        assertThat(managed.uninstall(installed)).isEmpty();
    }

    @Test
    void notUtf8_isRefused() {
        assertThatThrownBy(() -> managed.install(new byte[] {(byte) 0xff, 'x'}, HookLauncher.plain(LAUNCHER), bindings()))
                .isInstanceOf(SettingsException.class).hasMessageContaining("UTF-8");
    }
}
