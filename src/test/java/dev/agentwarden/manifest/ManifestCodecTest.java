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
}
