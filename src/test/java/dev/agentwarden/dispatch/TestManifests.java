package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.host.claude.ClaudeAdapter;
import dev.agentwarden.json.Json;
import dev.agentwarden.manifest.ManifestCompiler;
import dev.agentwarden.manifest.ManifestException;
import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.manifest.ManifestLoader;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Small manifests and events built in tests. */
final class TestManifests {
    private TestManifests() {
    }

    /** Compiles manifest YAML, failing the test on any error. */
    static Manifest compile(String yaml) {
        try {
            ManifestCompiler.Result r = ManifestCompiler.compile("test.yaml", yaml,
                    ManifestLoader.sha256(yaml.getBytes(StandardCharsets.UTF_8)));
            assertThat(r.problems()).as("manifest problems").noneMatch(p -> p.isError());
            return r.manifest();
        } catch (ManifestException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /** A one-concern spec: the concern {@code c} of a manifest whose only concern is given as YAML lines. */
    static ConcernSpec spec(String concernYaml) {
        String indented = concernYaml.strip().indent(4);
        Manifest m = compile("schema_version: 1\nconcerns:\n  c:\n" + indented
                + "platforms:\n  claude:\n    pre_tool_use: [c]\n");
        return m.concerns().get("c");
    }

    /** A Claude event from payload JSON, with the workspace root given. */
    static HookEvent claudeEvent(String nativeEvent, EventName event, String payloadJson, String workspaceRoot) {
        Map<String, Object> payload = Json.parseObject(payloadJson);
        return new ClaudeAdapter("claude").normalize(nativeEvent, event, payload,
                payloadJson.getBytes(StandardCharsets.UTF_8), workspaceRoot);
    }
}
