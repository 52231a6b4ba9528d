package dev.agentwarden.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DsseTest {

    @Test
    void pae_specificationVector_matchesByteForByte() {
        byte[] pae = Dsse.pae("http://example.com/HelloWorld", "hello world".getBytes(StandardCharsets.UTF_8));

        assertThat(new String(pae, StandardCharsets.UTF_8))
                .isEqualTo("DSSEv1 29 http://example.com/HelloWorld 11 hello world");
    }

    @Test
    void pae_lengthsCountUtf8Bytes() {
        byte[] pae = Dsse.pae("t\u00e9", "\u20ac".getBytes(StandardCharsets.UTF_8));

        assertThat(new String(pae, StandardCharsets.UTF_8)).isEqualTo("DSSEv1 3 t\u00e9 3 \u20ac");
    }

    @Test
    void pae_emptyBody() {
        assertThat(new String(Dsse.pae("x", new byte[0]), StandardCharsets.US_ASCII)).isEqualTo("DSSEv1 1 x 0 ");
    }

    static Stream<Arguments> base64() {
        return Stream.of(
                Arguments.of("standard padded", "+/8=", new byte[] {(byte) 0xfb, (byte) 0xff}),
                Arguments.of("standard unpadded", "+/8", new byte[] {(byte) 0xfb, (byte) 0xff}),
                Arguments.of("url-safe padded", "-_8=", new byte[] {(byte) 0xfb, (byte) 0xff}),
                Arguments.of("url-safe unpadded", "-_8", new byte[] {(byte) 0xfb, (byte) 0xff}),
                Arguments.of("mixed alphabets", "+_8=", null),
                Arguments.of("whitespace", "+/ 8=", null),
                Arguments.of("dangling character", "+/8=A", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("base64")
    void decodeBase64_variants(String why, String text, byte[] expected) {
        assertThat(Dsse.decodeBase64(text)).isEqualTo(expected);
    }
}
