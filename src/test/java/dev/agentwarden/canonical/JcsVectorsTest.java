package dev.agentwarden.canonical;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The RFC 8785 reference implementation's test vectors (src/test/resources/jcs, see SOURCE.md), byte for byte. */
class JcsVectorsTest {

    static Stream<String> vectors() throws IOException, URISyntaxException {
        try (Stream<Path> files = Files.list(dir("input"))) {
            return files.map(p -> p.getFileName().toString()).sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void canonicalize_referenceVector_matchesExpectedBytes(String name) throws Exception {
        byte[] input = Files.readAllBytes(dir("input").resolve(name));
        byte[] expected = Files.readAllBytes(dir("output").resolve(name));

        assertThat(Jcs.canonicalize(input)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void canonicalize_canonicalOutput_isFixedPoint(String name) throws Exception {
        byte[] expected = Files.readAllBytes(dir("output").resolve(name));

        assertThat(Jcs.canonicalize(expected)).isEqualTo(expected);
    }

    private static Path dir(String which) throws URISyntaxException {
        return Path.of(JcsVectorsTest.class.getResource("/jcs/" + which).toURI());
    }
}
