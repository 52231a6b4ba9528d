package dev.agentwarden.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** protect-warden refuses edits of Copilot CLI's hook files, where Warden's hooks live for Copilot. */
class ProtectWardenCopilotTest {
    @Test
    void reasonForPath_copilotHookFiles_isRefused_otherJsonIsNot() {
        Map<String, String> env = Map.of("HOME", "/home/u");
        assertThat(ProtectWarden.reasonForPath(".github/hooks/warden.json", "/p", env)).contains("Copilot CLI's hook settings");
        assertThat(ProtectWarden.reasonForPath("~/.copilot/hooks/other.json", "/p", env)).contains("Copilot CLI's hook settings");
        assertThat(ProtectWarden.reasonForPath(".github/workflows/ci.json", "/p", env)).isNull();
        assertThat(ProtectWarden.reasonForPath("src/hooks/x.json", "/p", env)).isNull();
    }
}
