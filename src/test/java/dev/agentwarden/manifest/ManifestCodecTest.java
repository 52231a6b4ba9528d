package dev.agentwarden.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The compiled-manifest cache reads through the typed JSON reader: a damaged field is named, never a cast failure. */
class ManifestCodecTest {
    private static Manifest defaults() throws ManifestException {
        return ManifestCompiler.compile("builtin:default", DefaultManifest.YAML,
                ManifestLoader.sha256(DefaultManifest.YAML.getBytes(StandardCharsets.UTF_8))).manifest();
    }

    @Test
    void read_whatWriteWrote_isTheSameManifest() throws ManifestException {
        Manifest m = defaults();
        Manifest back = ManifestCodec.read("builtin:default", ManifestCodec.write(m));

        assertThat(ManifestCodec.write(back)).isEqualTo(ManifestCodec.write(m));
        assertThat(back.concerns()).isEqualTo(m.concerns());
    }

    @Test
    void read_fieldOfTheWrongType_isAnIllegalArgumentNamingTheField() throws ManifestException {
        String text = ManifestCodec.write(defaults()).replace("\"timeout_ms\":", "\"timeout_ms\":\"x\",\"was\":");

        assertThatThrownBy(() -> ManifestCodec.read("builtin:default", text)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("compiled manifest.concerns.block-no-verify.timeout_ms must be an integer");
    }

    @Test
    void read_toolListWithANonString_isAnIllegalArgument() throws ManifestException {
        String text = ManifestCodec.write(defaults()).replaceFirst("\"tools\":\\[", "\"tools\":[1,");

        assertThatThrownBy(() -> ManifestCodec.read("builtin:default", text)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("compiled manifest.concerns.block-no-verify.tools[0] must be a string");
    }

    @Test
    void escalate_survivesTheCache_andIsAbsentWhereNotWritten() throws ManifestException {
        String yaml = """
                schema_version: 1
                concerns:
                  a:
                    script: builtin:block-no-verify
                    escalate: {after: 3, within: 90s, then: ask}
                  b:
                    script: builtin:block-no-verify
                    escalate: {after: 1, within: 2h, then: halt}
                  c:
                    script: builtin:block-no-verify
                platforms:
                  claude:
                    pre_tool_use: [a, b, c]
                """;
        Manifest m = ManifestCompiler.compile("policy.yaml", yaml, "0".repeat(64)).manifest();
        Manifest back = ManifestCodec.read("policy.yaml", ManifestCodec.write(m));

        assertThat(back.concerns()).isEqualTo(m.concerns());
        assertThat(back.concerns().get("a").escalate()).isEqualTo(new dev.agentwarden.concern.Escalation(3, 90_000,
                dev.agentwarden.concern.Decision.ASK));
        assertThat(back.concerns().get("b").escalate().withinMs()).isEqualTo(7_200_000);
        assertThat(back.concerns().get("c").escalate()).isNull();
        assertThat(ManifestCodec.write(defaults())).doesNotContain("escalate");
    }
}
