package dev.agentwarden.digest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class Sha256Test {

    @ParameterizedTest
    @CsvSource({
        "'', e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "abc, ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq, 248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    })
    void hex_fipsVectors_match(String input, String expected) {
        assertThat(Sha256.hex(input.getBytes(StandardCharsets.US_ASCII))).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 1000, 65_537})
    void hex_everyPaddingBoundary_matchesMessageDigest(int length) throws Exception {
        byte[] data = new byte[length];
        new Random(length).nextBytes(data);
        String expected = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        assertThat(Sha256.hex(data)).isEqualTo(expected);
    }

    /** Integrity evidence hashes the part of a buffer that was read; the slice form replaced a second digest helper. */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 55, 64, 65, 1000})
    void hex_sliceOfBuffer_matchesMessageDigestOfSlice(int length) throws Exception {
        byte[] buffer = new byte[length + 17];
        new Random(length).nextBytes(buffer);
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        md.update(buffer, 9, length);
        assertThat(Sha256.hex(buffer, 9, length)).isEqualTo(HexFormat.of().formatHex(md.digest()));
    }
}
