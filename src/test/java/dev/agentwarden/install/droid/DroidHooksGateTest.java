package dev.agentwarden.install.droid;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.install.HostTrustGate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Factory Droid's switches that turn hooks off, as {@code doctor} and {@code install} report them. */
class DroidHooksGateTest {
    @Test
    void gate_reportsHooksDisabled_andTheOrganisationsManagedOnlySwitch(@TempDir Path dir) throws Exception {
        Path project = Files.createDirectories(dir.resolve("proj"));
        Path home = Files.createDirectories(dir.resolve("home"));
        Path hooks = Files.createDirectories(project.resolve(".factory")).resolve("hooks.json");
        Files.writeString(hooks, "{\"hooksDisabled\": true}");
        Path org = dir.resolve("org-settings.json");
        HostTrustGate gate = new DroidHooksGate(org);
        Map<String, String> env = Map.of("HOME", home.toString());
        List<HostTrustGate.Finding> findings = gate.check(hooks, false, project, env);
        assertThat(findings).anySatisfy(f -> {
            assertThat(f.problem()).isTrue();
            assertThat(f.text()).contains("hooksDisabled").contains(hooks.toString());
        });
        Files.writeString(org, "{\"allowManagedHooksOnly\": true}");
        assertThat(gate.check(hooks, false, project, env)).singleElement().satisfies(f -> {
            assertThat(f.problem()).isTrue();
            assertThat(f.text()).contains("allowManagedHooksOnly");
        });
        Files.writeString(org, "{}");
        Files.writeString(hooks, "{\"PreToolUse\": []}");
        assertThat(gate.check(hooks, false, project, env)).noneMatch(HostTrustGate.Finding::problem);
        Files.writeString(hooks.resolveSibling("settings.json"), "{\"hooks\": {\"Stop\": []}}");
        assertThat(gate.installNotes(hooks, false, project, env)).singleElement()
                .satisfies(n -> assertThat(n).contains("settings.json names hooks"));
    }
}
