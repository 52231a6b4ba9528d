package dev.agentwarden.install.kilo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.install.HostTrustGate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kilo's plugin gate: the switches and the missing npm install that keep Warden's bridge from loading. */
class KiloPluginGateTest {
    @TempDir
    Path dir;

    @Test
    void gate_underKiloPure_isAProblem_forEveryScope() {
        KiloPluginGate gate = new KiloPluginGate();
        Path file = dir.resolve(".kilo/plugin/warden-bridge.js");
        assertThat(gate.check(file, false, dir, Map.of("KILO_PURE", "TRUE"))).anySatisfy(f -> {
            assertThat(f.problem()).isTrue();
            assertThat(f.text()).contains("KILO_PURE");
        });
        assertThat(gate.check(file, true, dir, Map.of("KILO_PURE", "1"))).anyMatch(HostTrustGate.Finding::problem);
        assertThat(gate.check(file, false, dir, Map.of("KILO_PURE", "0"))).noneMatch(HostTrustGate.Finding::problem);
    }

    @Test
    void gate_projectConfigDisabled_isAProblemForTheProjectsBridgeOnly() {
        KiloPluginGate gate = new KiloPluginGate();
        Path file = dir.resolve(".kilo/plugin/warden-bridge.js");
        Map<String, String> env = Map.of("KILO_DISABLE_PROJECT_CONFIG", "true");
        assertThat(gate.check(file, false, dir, env)).anySatisfy(f -> {
            assertThat(f.problem()).isTrue();
            assertThat(f.text()).contains("KILO_DISABLE_PROJECT_CONFIG");
        });
        assertThat(gate.check(file, true, dir, env)).noneMatch(HostTrustGate.Finding::problem);
    }

    @Test
    void gate_configDirWithoutNodeModules_notesKilosNpmInstall() throws Exception {
        KiloPluginGate gate = new KiloPluginGate();
        Path file = dir.resolve(".kilo/plugin/warden-bridge.js");
        assertThat(gate.check(file, false, dir, Map.of())).anySatisfy(f -> {
            assertThat(f.problem()).isFalse();
            assertThat(f.text()).contains("@kilocode/plugin").contains("80 s");
        });
        Files.createDirectories(dir.resolve(".kilo/node_modules"));
        assertThat(gate.check(file, false, dir, Map.of())).noneMatch(f -> f.text().contains("@kilocode/plugin"));
    }

    /** Kilo's reading of its flags: 1 or true, in any case; anything else is unset. */
    @Test
    void isSet_isKilosReading() {
        assertThat(KiloPluginGate.isSet("1")).isTrue();
        assertThat(KiloPluginGate.isSet("True")).isTrue();
        assertThat(KiloPluginGate.isSet("yes")).isFalse();
        assertThat(KiloPluginGate.isSet("")).isFalse();
        assertThat(KiloPluginGate.isSet(null)).isFalse();
    }
}
