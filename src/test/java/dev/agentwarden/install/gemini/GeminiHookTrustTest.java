package dev.agentwarden.install.gemini;

import dev.agentwarden.install.HookLauncher;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.gemini.GeminiHost;
import dev.agentwarden.install.HostTrustGate.Finding;
import dev.agentwarden.install.HostTrustGate;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.gemini.GeminiSetup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Gemini's folder trust and hook fingerprints, as {@code warden doctor} reports them. */
class GeminiHookTrustTest {
    @TempDir
    Path home;
    @TempDir
    Path root;

    private Path hooksFile() throws Exception {
        Path file = root.resolve(".gemini/settings.json");
        Files.createDirectories(file.getParent());
        Files.write(file, GeminiSetup.GEMINI.installer(Host.Scope.PROJECT).install("{}".getBytes(), HookLauncher.plain("/opt/w/bin/warden"),
                List.of(new Installer.Binding("BeforeTool", "*"))));
        return file;
    }

    private List<Finding> check(Map<String, String> extra) throws Exception {
        Map<String, String> env = new java.util.HashMap<>(extra);
        env.put("HOME", home.toString());
        return HostTrustGate.forHost("gemini").check(hooksFile(), false, root, env);
    }

    private void write(String name, String json) throws Exception {
        Files.createDirectories(home.resolve(".gemini"));
        Files.writeString(home.resolve(".gemini").resolve(name), json);
    }

    @Test
    void check_untrustedFolder_isAProblemNamingTheWaysToTrust() throws Exception {
        List<Finding> found = check(Map.of());
        assertThat(found).anySatisfy(f -> {
            assertThat(f.problem()).isTrue();
            assertThat(f.text()).contains("Gemini does not trust " + root).contains("exits 55");
            assertThat(f.fix()).contains("TRUST_FOLDER").contains("GEMINI_CLI_TRUST_WORKSPACE=true");
        });
    }

    @Test
    void check_trustWorkspaceVariable_trusts() throws Exception {
        assertThat(check(Map.of("GEMINI_CLI_TRUST_WORKSPACE", "true"))).noneMatch(Finding::problem);
        assertThat(check(Map.of("GEMINI_CLI_TRUST_WORKSPACE", "false"))).anyMatch(f -> f.problem() && f.text().contains("distrusts every folder"));
    }

    @Test
    void check_trustedParentRule_trusts_butALongerDoNotTrustWins() throws Exception {
        write("trustedFolders.json", "{\"" + root.resolve("x") + "\": \"TRUST_PARENT\"}");
        assertThat(check(Map.of())).noneMatch(Finding::problem);
        write("trustedFolders.json", "{\"" + root.getParent() + "\": \"TRUST_FOLDER\", \"" + root + "\": \"DO_NOT_TRUST\"}");
        assertThat(check(Map.of())).anyMatch(f -> f.problem() && f.text().contains("distrusts " + root));
    }

    @Test
    void check_folderTrustOff_trustsEveryFolder() throws Exception {
        write("settings.json", "{\"security\": {\"folderTrust\": {\"enabled\": false}}}");
        assertThat(check(Map.of())).noneMatch(Finding::problem);
    }

    @Test
    void check_hooksDisabledOrWardenDisabledByName_isAProblem() throws Exception {
        write("settings.json", "{\"hooksConfig\": {\"enabled\": false, \"disabled\": [\"warden\"]}}");
        List<Finding> found = check(Map.of("GEMINI_CLI_TRUST_WORKSPACE", "true"));
        assertThat(found).anyMatch(f -> f.problem() && f.text().contains("Gemini runs no hooks"));
        assertThat(found).anyMatch(f -> f.problem() && f.text().contains("skips Warden's hooks"));
    }

    @Test
    void check_fingerprints_noteWhetherGeminiRecordedWardensHooks() throws Exception {
        Map<String, String> trusted = Map.of("GEMINI_CLI_TRUST_WORKSPACE", "true");
        assertThat(check(trusted)).anyMatch(f -> !f.problem() && f.text().contains("not yet fingerprinted"));
        write("trusted_hooks.json", "{\"" + root + "\": [\"warden:/opt/w/bin/warden dispatch --host gemini --native-event BeforeTool\"]}");
        assertThat(check(trusted)).anyMatch(f -> !f.problem() && f.text().contains("records every one of Warden's hooks"));
    }

    @Test
    void installNotes_projectScope_sayWhatGatesProjectHooks() throws Exception {
        List<String> notes = HostTrustGate.forHost("gemini").installNotes(hooksFile(), false, root,
                Map.of("HOME", home.toString()));
        assertThat(notes.get(0)).contains("only in a trusted folder").contains("trusted_hooks.json");
        assertThat(notes).anyMatch(n -> n.contains("Gemini does not trust"));
    }
}
