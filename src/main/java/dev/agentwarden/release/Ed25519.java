package dev.agentwarden.release;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.EdECPrivateKey;
import java.security.spec.NamedParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Ed25519 (RFC 8032) through the JDK's SunEC provider: raw 32-byte public keys as TUF lists them,
 * X.509 SPKI and PKCS#8 encodings as PEM files carry them.
 */
final class Ed25519 {
    static final int PUBLIC_KEY_BYTES = 32;
    static final int SIGNATURE_BYTES = 64;
    /** DER prefix of an Ed25519 SubjectPublicKeyInfo; the raw key follows. */
    private static final byte[] SPKI_PREFIX = HexFormat.of().parseHex("302a300506032b6570032100");

    private Ed25519() {
    }

    static KeyPair generate() {
        try {
            return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 is part of every JDK since 15", e);
        }
    }

    /** The JCA public key for raw key bytes. */
    static PublicKey publicKey(byte[] raw) throws GeneralSecurityException {
        if (raw.length != PUBLIC_KEY_BYTES) {
            throw new GeneralSecurityException("an Ed25519 public key has 32 bytes, not " + raw.length);
        }
        byte[] spki = Arrays.copyOf(SPKI_PREFIX, SPKI_PREFIX.length + raw.length);
        System.arraycopy(raw, 0, spki, SPKI_PREFIX.length, raw.length);
        return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(spki));
    }

    /** The public key of an X.509 SubjectPublicKeyInfo, as raw bytes. */
    static byte[] rawPublicKey(byte[] spki) throws GeneralSecurityException {
        if (spki.length != SPKI_PREFIX.length + PUBLIC_KEY_BYTES
                || !Arrays.equals(spki, 0, SPKI_PREFIX.length, SPKI_PREFIX, 0, SPKI_PREFIX.length)) {
            throw new GeneralSecurityException("not an Ed25519 SubjectPublicKeyInfo");
        }
        return Arrays.copyOfRange(spki, SPKI_PREFIX.length, spki.length);
    }

    static PrivateKey privateKey(byte[] pkcs8) throws GeneralSecurityException {
        return KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
    }

    /**
     * The raw public key belonging to a private key. The JDK has no API for this, but its key-pair
     * generator derives the pair from the 32 random bytes it draws, so handing it the private key's
     * seed as its randomness yields the matching public key (RFC 8032 section 5.1.5).
     */
    static byte[] publicKeyOf(PrivateKey privateKey) throws GeneralSecurityException {
        if (!(privateKey instanceof EdECPrivateKey ed)) {
            throw new GeneralSecurityException("not an Ed25519 private key");
        }
        byte[] seed = ed.getBytes().orElseThrow(() -> new GeneralSecurityException("private key bytes unavailable"));
        KeyPairGenerator generator = KeyPairGenerator.getInstance("Ed25519");
        generator.initialize(NamedParameterSpec.ED25519, new SeedRandom(seed));
        return rawPublicKey(generator.generateKeyPair().getPublic().getEncoded());
    }

    static byte[] sign(PrivateKey key, byte[] message) throws GeneralSecurityException {
        Signature signature = Signature.getInstance("Ed25519");
        signature.initSign(key);
        signature.update(message);
        return signature.sign();
    }

    /** Whether {@code signature} is valid for {@code message} under {@code key}; never throws. */
    static boolean verify(PublicKey key, byte[] message, byte[] signature) {
        if (signature.length != SIGNATURE_BYTES) {
            return false;
        }
        try {
            Signature verifier = Signature.getInstance("Ed25519");
            verifier.initVerify(key);
            verifier.update(message);
            return verifier.verify(signature);
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }

    /** Randomness that replays one fixed seed, for deriving a key pair from a known private key. */
    private static final class SeedRandom extends SecureRandom {
        private static final long serialVersionUID = 1L;
        private final transient byte[] seed;

        SeedRandom(byte[] seed) {
            this.seed = seed.clone();
        }

        @Override
        public void nextBytes(byte[] bytes) {
            if (bytes.length != seed.length) {
                throw new IllegalStateException("expected a request for " + seed.length + " bytes, got " + bytes.length);
            }
            System.arraycopy(seed, 0, bytes, 0, bytes.length);
        }
    }
}
