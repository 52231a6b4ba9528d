package dev.agentwarden.release;

import java.security.GeneralSecurityException;
import java.security.PrivateKey;

/**
 * An Ed25519 private key with its public half and TUF key id.
 *
 * @param privateKey the JCA private key
 * @param publicKey  the raw 32-byte public key
 * @param keyId      hex SHA-256 of the RFC 8785 form of the key's TUF key object
 */
public record SigningKey(PrivateKey privateKey, byte[] publicKey, String keyId) {

    static SigningKey of(PrivateKey privateKey) throws GeneralSecurityException {
        byte[] publicKey = Ed25519.publicKeyOf(privateKey);
        return new SigningKey(privateKey, publicKey, RootKey.keyId(publicKey));
    }

    byte[] sign(byte[] message) throws GeneralSecurityException {
        return Ed25519.sign(privateKey, message);
    }
}
