package dev.agentwarden.manifest;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.concern.ConcernSpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.event.EventName;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * Issue 11: an agent-config manifest (the seed's {@code hook_manifest.yaml} shape) still loads
 * unchanged under the stricter compiler, and resolves, for every host, event and role, the chain
 * agent-config's dispatcher resolves: the listed order; a declared role's drops on every event but
 * pre_tool_use; a role it does not declare gets the whole chain (agent-config maps an unknown role
 * to orchestrator, which this manifest does not declare); a fallback-only host binds nothing.
 */
class AgentConfigManifestChainsTest {
    private static final List<String> ROLES = List.of("", "worker", "reviewer", "orchestrator");

    @Test
    @SuppressWarnings("unchecked")
    void agentConfigManifest_everyHostEventAndRole_resolvesAgentConfigsChain() throws Exception {
        String yaml;
        try (InputStream in = getClass().getResourceAsStream("/manifest/agent-config-shaped.yaml")) {
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        ManifestCompiler.Result r = ManifestCompiler.compile("hook_manifest.yaml", yaml,
                Sha256.hex(yaml.getBytes(StandardCharsets.UTF_8)));
        assertThat(r.problems()).as("loads unchanged").noneMatch(ManifestProblem::isError);
        Manifest m = r.manifest();

        Map<String, Object> raw = (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(yaml);
        Map<String, Map<String, Object>> platforms = (Map<String, Map<String, Object>>) raw.get("platforms");
        Map<String, Map<String, List<String>>> roles = (Map<String, Map<String, List<String>>>) raw.get("roles");
        Map<String, Map<String, String>> aliases = (Map<String, Map<String, String>>) raw.get("native_event_aliases");
        int checked = 0;
        for (String host : platforms.keySet()) {
            for (EventName event : EventName.values()) {
                Object listed = platforms.get(host).get(event.wire());
                List<String> chain = listed instanceof List<?> l ? (List<String>) l : List.of();
                for (String role : ROLES) {
                    List<String> expected = new ArrayList<>(chain);
                    if (roles.containsKey(role) && event != EventName.PRE_TOOL_USE) {
                        expected.removeAll(roles.get(role).get("drop"));
                    }
                    List<String> actual = m.chain(host, event, role).stream().map(ConcernSpec::name).toList();
                    assertThat(actual).as("%s %s role '%s'", host, event.wire(), role).isEqualTo(expected);
                    checked++;
                }
            }
            for (Map.Entry<String, String> alias : aliases.getOrDefault(host, Map.of()).entrySet()) {
                assertThat(m.canonicalEvent(host, alias.getKey())).as("%s %s", host, alias.getKey())
                        .isEqualTo(EventName.fromWire(alias.getValue()));
            }
        }
        assertThat(platforms.keySet()).contains("claude", "cowork", "cursor", "cline", "windsurf", "gemini", "augment", "copilot");
        assertThat(checked).isEqualTo(platforms.size() * EventName.values().length * ROLES.size());
        assertThat(m.chains().getOrDefault("copilot", Map.of())).as("fallback_only binds nothing").isEmpty();
    }
}
