package dev.agentwarden.release;

import dev.agentwarden.io.StateFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.util.Base64;

/**
 * Ed25519 key files in PEM: private keys as PKCS#8 ({@code PRIVATE KEY}), public keys as X.509
 * SubjectPublicKeyInfo ({@code PUBLIC KEY}), the encodings {@code openssl genpkey -algorithm
 * ed25519} and {@code openssl pkey -pubout} write.
 */
public final class KeyFiles {
    private static final int MAX_KEY_FILE_BYTES = 64 * 1024;
    private static final String PRIVATE_LABEL = "PRIVATE KEY";
    private static final String PUBLIC_LABEL = "PUBLIC KEY";

    private KeyFiles() {
    }

    /** The files one {@link #generate} call wrote. */
    public record Generated(String keyId, Path privateKeyFile, Path publicKeyFile) {
    }

    /**
     * Writes a fresh key pair as {@code <dir>/<name>.key.pem} (owner-only where the file system
     * allows) and {@code <dir>/<name>.pub.pem}; never overwrites.
     *
     * @param name file name stem, or {@code null} for {@code ed25519-<first 16 hex of the key id>}
     */
    public static Generated generate(Path dir, String name) throws ReleaseException {
        KeyPair pair = Ed25519.generate();
        byte[] raw;
        try {
            raw = Ed25519.rawPublicKey(pair.getPublic().getEncoded());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK generated a key it cannot encode", e);
        }
        String keyId = RootKey.keyId(raw);
        String stem = name != null ? name : "ed25519-" + keyId.substring(0, 16);
        if (stem.isEmpty() || stem.contains("/") || stem.contains("\\") || stem.startsWith(".")) {
            throw new ReleaseException("key_name_invalid", "key name must be a plain file name stem: '" + stem + "'");
        }
        Path privateFile = dir.resolve(stem + ".key.pem");
        Path publicFile = dir.resolve(stem + ".pub.pem");
        try {
            Files.createDirectories(dir);
            if (Files.exists(privateFile) || Files.exists(publicFile)) {
                throw new ReleaseException("key_exists", "refusing to overwrite " + privateFile + " / " + publicFile);
            }
            writeOwnerOnly(privateFile, pem(PRIVATE_LABEL, pair.getPrivate().getEncoded()));
            Files.writeString(publicFile, pem(PUBLIC_LABEL, pair.getPublic().getEncoded()), StandardCharsets.US_ASCII,
                    StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } catch (FileAlreadyExistsException e) {
            throw new ReleaseException("key_exists", "refusing to overwrite " + e.getFile());
        } catch (IOException e) {
            throw new ReleaseException("key_write_failed", "cannot write key files in " + dir + ": " + e.getMessage(), e);
        }
        return new Generated(keyId, privateFile, publicFile);
    }

    /** Reads an Ed25519 PKCS#8 private key PEM file. */
    public static SigningKey readSigningKey(Path file) throws ReleaseException {
        byte[] der = readPem(file, PRIVATE_LABEL);
        try {
            return SigningKey.of(Ed25519.privateKey(der));
        } catch (GeneralSecurityException e) {
            throw new ReleaseException("key_wrong_type", file + ": not an Ed25519 private key (" + e.getMessage() + ")", e);
        }
    }

    /** Reads an Ed25519 SubjectPublicKeyInfo PEM file, or a private key file, as a raw public key. */
    static byte[] readPublicKey(Path file) throws ReleaseException {
        String text = readText(file);
        if (text.contains("-----BEGIN " + PRIVATE_LABEL + "-----")) {
            return readSigningKey(file).publicKey();
        }
        try {
            return Ed25519.rawPublicKey(decodePem(file, text, PUBLIC_LABEL));
        } catch (GeneralSecurityException e) {
            throw new ReleaseException("key_wrong_type", file + ": not an Ed25519 public key", e);
        }
    }

    static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + label + "-----\n";
    }

    private static byte[] readPem(Path file, String label) throws ReleaseException {
        return decodePem(file, readText(file), label);
    }

    private static String readText(Path file) throws ReleaseException {
        try {
            return new String(StateFiles.readAll(file, MAX_KEY_FILE_BYTES, true), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new ReleaseException("key_unreadable", "cannot read key file " + file + ": " + e.getMessage(), e);
        }
    }

    private static byte[] decodePem(Path file, String text, String label) throws ReleaseException {
        String begin = "-----BEGIN " + label + "-----";
        String end = "-----END " + label + "-----";
        int from = text.indexOf(begin);
        int to = from < 0 ? -1 : text.indexOf(end, from);
        if (from < 0 || to < 0) {
            String found = text.contains("-----BEGIN ") ? text.substring(text.indexOf("-----BEGIN ")).lines().findFirst().orElse("")
                    : "no PEM block";
            throw new ReleaseException("key_wrong_type", file + ": expected a '" + begin + "' block, found " + found);
        }
        try {
            return Base64.getMimeDecoder().decode(text.substring(from + begin.length(), to).strip());
        } catch (IllegalArgumentException e) {
            throw new ReleaseException("key_unreadable", file + ": PEM body is not base64", e);
        }
    }

    private static void writeOwnerOnly(Path file, String text) throws IOException {
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(file);
        }
        Files.writeString(file, text, StandardCharsets.US_ASCII, StandardOpenOption.TRUNCATE_EXISTING);
    }
}
