package dev.agentwarden.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** RFC 8032 section 7.1 TEST 1 on the JDK, and TUF key ids. */
class Ed25519Test {
    static final String SECRET = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
    static final String PUBLIC = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
    static final String SIGNATURE = "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc"
            + "61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b";

    @Test
    void rfc8032Test1_publicKeyDerivedFromSeed() throws Exception {
        SigningKey key = SigningKey.of(Ed25519.privateKey(pkcs8(SECRET)));

        assertThat(HexFormat.of().formatHex(key.publicKey())).isEqualTo(PUBLIC);
    }

    @Test
    void rfc8032Test1_signatureOfEmptyMessage() throws Exception {
        SigningKey key = SigningKey.of(Ed25519.privateKey(pkcs8(SECRET)));

        assertThat(HexFormat.of().formatHex(key.sign(new byte[0]))).isEqualTo(SIGNATURE);
        assertThat(Ed25519.verify(Ed25519.publicKey(HexFormat.of().parseHex(PUBLIC)), new byte[0],
                HexFormat.of().parseHex(SIGNATURE))).isTrue();
        assertThat(Ed25519.verify(Ed25519.publicKey(HexFormat.of().parseHex(PUBLIC)), new byte[] {0},
                HexFormat.of().parseHex(SIGNATURE))).isFalse();
    }

    @Test
    void keyId_isSha256OfCanonicalKeyObject() throws Exception {
        String canonical = "{\"keytype\":\"ed25519\",\"keyval\":{\"public\":\"" + PUBLIC + "\"},\"scheme\":\"ed25519\"}";
        String expected = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(canonical.getBytes(StandardCharsets.UTF_8)));

        assertThat(RootKey.keyId(HexFormat.of().parseHex(PUBLIC))).isEqualTo(expected);
    }

    @Test
    void verify_malformedInputs_returnFalseWithoutThrowing() throws Exception {
        var publicKey = Ed25519.publicKey(HexFormat.of().parseHex(PUBLIC));

        assertThat(Ed25519.verify(publicKey, new byte[0], new byte[64])).isFalse();
        assertThat(Ed25519.verify(publicKey, new byte[0], new byte[3])).isFalse();
        byte[] highS = HexFormat.of().parseHex(SIGNATURE);
        highS[63] = (byte) 0xff;
        assertThat(Ed25519.verify(publicKey, new byte[0], highS)).isFalse();
    }

    static byte[] pkcs8(String seedHex) {
        return HexFormat.of().parseHex("302e020100300506032b657004220420" + seedHex);
    }
}
