package dev.agentwarden.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.event.EventName;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * agent-config's {@code fallback_only: true} marks a host with no hook surface: it binds nothing,
 * now that the default manifest binds chains for {@code copilot} too.
 */
class FallbackOnlyTest {
    private static Manifest compile(String yaml) throws ManifestException {
        ManifestCompiler.Result r = ManifestCompiler.compile("m.yaml", yaml, Sha256.hex(yaml.getBytes(StandardCharsets.UTF_8)));
        assertThat(r.problems()).noneMatch(ManifestProblem::isError);
        return r.manifest();
    }

    @Test
    void fallbackOnly_underExtendsDefault_bindsNothingForTheHost() throws Exception {
        Manifest m = compile("""
                schema_version: 1
                extends: default
                platforms:
                  copilot:
                    fallback_only: true
                """);
        assertThat(m.chains().getOrDefault("copilot", Map.of())).isEmpty();
        assertThat(m.chain("copilot", EventName.PRE_TOOL_USE, Manifest.DEFAULT_ROLE)).isEmpty();
        assertThat(m.chain("claude", EventName.PRE_TOOL_USE, Manifest.DEFAULT_ROLE)).as("other hosts keep the default").isNotEmpty();
    }

    @Test
    void fallbackOnlyFalse_orTheDefaultAlone_bindsTheDefaultChainsForCopilot() throws Exception {
        Manifest m = compile("""
                schema_version: 1
                extends: default
                platforms:
                  copilot:
                    fallback_only: false
                """);
        assertThat(m.chain("copilot", EventName.PRE_TOOL_USE, Manifest.DEFAULT_ROLE)).extracting(c -> c.name())
                .containsExactly("block-no-verify", "protect-warden", "spawn-guard");
    }
}
