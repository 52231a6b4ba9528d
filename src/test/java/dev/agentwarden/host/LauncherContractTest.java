package dev.agentwarden.host;

import dev.agentwarden.install.HookLauncher;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.host.cline.ClineHost;
import dev.agentwarden.host.copilot.CopilotHost;
import dev.agentwarden.install.HookFileInstaller;
import dev.agentwarden.install.cline.ClineSetup;
import dev.agentwarden.verdict.Verdict;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A host's {@link LauncherContract} says what the launcher answers when no JVM can: it must be what
 * the JVM itself answers when it fails ({@code DispatchMain}: the adapter's rendering of "no opinion",
 * and of the closed fail mode's block where the host reads its refusal on stdout).
 */
class LauncherContractTest {
    /** The reason of the JVM's own closed fail mode ({@code DispatchMain.failRuntime}). */
    private static final String CANNOT_EVALUATE = "Warden cannot evaluate policy (WARDEN_FAIL_MODE=closed)";

    @Test
    void launcherContract_noOpinion_isTheAdaptersNoOpinionOnEveryNativeEventItNames() {
        List<String> differs = new ArrayList<>();
        for (Host h : Hosts.ALL) {
            for (Map.Entry<String, String> e : h.launcher().noOpinions().entrySet()) {
                String jvm = h.adapter().render(e.getKey(), Verdict.NO_OPINION).stdout();
                if (!jvm.equals(e.getValue())) {
                    differs.add(h.id() + ":" + e.getKey() + " launcher " + e.getValue() + " jvm " + jvm);
                }
            }
        }
        assertThat(differs).isEmpty();
    }

    @Test
    void launcherContract_copilotRefusals_areTheAdaptersClosedBlock() {
        Host copilot = CopilotHost.COPILOT;
        assertThat(copilot.launcher().refusals()).isNotEmpty();
        for (Map.Entry<String, String> e : copilot.launcher().refusals().entrySet()) {
            assertThat(e.getValue()).as(e.getKey())
                    .isEqualTo(copilot.adapter().render(e.getKey(), Verdict.block(CANNOT_EVALUATE)).stdout());
        }
    }

    /** Cline's installed hook file cancels the task itself when the launcher is gone: the same cancel. */
    @Test
    void launcherContract_clineRefusal_isTheHookFilesOwnCancel() {
        Host cline = ClineHost.CLINE;
        assertThat(cline.launcher().refusals()).isNotEmpty();
        for (Map.Entry<String, String> e : cline.launcher().refusals().entrySet()) {
            String file = new String(ClineSetup.CLINE.installer(Host.Scope.PROJECT) instanceof HookFileInstaller files
                    ? files.content(HookLauncher.plain("/w/bin/warden"), e.getKey()) : new byte[0], StandardCharsets.UTF_8);
            assertThat(e.getValue()).endsWith("\n");
            assertThat(file).as(e.getKey()).contains("printf '%s\\n' '" + e.getValue().strip() + "'\n");
        }
    }

    @Test
    void launcherContract_refusalEvents_areNativeEventsOfTheHost() {
        for (Host h : Hosts.ALL) {
            Set<String> named = new TreeSet<>(h.launcher().refusals().keySet());
            named.addAll(h.launcher().noOpinions().keySet());
            assertThat(h.defaultAliases().keySet()).as(h.id()).containsAll(named);
        }
    }

    @Test
    void launcherContract_textWithAControlCharacter_isRefused() {
        assertThatThrownBy(() -> LauncherContract.PLAIN.refusing("a\nb", "Stop")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LauncherContract.PLAIN.noOpinion("{}", "Stop;rm")).isInstanceOf(IllegalArgumentException.class);
        assertThat(LauncherContract.PLAIN.refusing("{}\n", "Stop").refusal("Stop")).isEqualTo("{}\n");
    }
}
