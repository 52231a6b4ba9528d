package dev.agentwarden.release;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.json.Fields;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import dev.agentwarden.release.TrustFailure.Untrusted;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A managed policy bundle: the administrator's files ({@code manifest.yaml}, {@code settings.json})
 * as one DSSE envelope, signed by a threshold of the keys of a TUF-style trust root, exactly as a
 * release manifest is ({@link TrustRoot}, {@link Dsse}, root rotation by {@code <N+1>.root.json}
 * beside the root file). The payload is
 * {@code {"_type":"policy-bundle","version":N,"expires":"<RFC 3339>","files":{"manifest.yaml":"<text>",...},
 * "scripts":{"<relative path>":{"sha256":"<hex>","mode":"0755"|"0644","content":"<base64>"},...}}}:
 * the script files the manifest names by relative path, so the signature covers their bytes and mode.
 *
 * <p>{@link #verify} checks, at one instant: the root is signed by its own threshold, each rotation
 * by the previous and its own, the last root has not expired and is not older than the root trusted
 * before; the envelope is signed by a threshold of the last root's keys (a key that a rotation
 * removed, i.e. revoked, counts for nothing); the bundle version is above the floor (no rollback,
 * no replay of the installed version) and the bundle has not expired.
 */
public final class PolicyBundle {
    static final String PAYLOAD_TYPE = "application/vnd.agent-warden.policy-bundle+json";
    static final String TYPE = "policy-bundle";
    /** The files a bundle may carry besides scripts. */
    public static final List<String> FILES = List.of("manifest.yaml", "settings.json");
    static final int MAX_FILE_BYTES = 1024 * 1024;
    /** Per script file, all script files together, and how many. */
    public static final int MAX_SCRIPT_BYTES = 1024 * 1024;
    public static final int MAX_SCRIPTS_TOTAL_BYTES = 2 * 1024 * 1024;
    static final int MAX_SCRIPTS = 64;
    private static final int MAX_SCRIPT_NAME_CHARS = 255;

    /** A script file carried by a bundle: its bytes and whether it is installed executable (0755) or not (0644). */
    public record Script(byte[] bytes, boolean executable) {
    }

    private PolicyBundle() {
    }

    /**
     * A bundle that verified.
     *
     * @param signers     key ids of the root keys that signed it
     * @param rootSha256  which root signed it (RFC 8785 SHA-256 of its {@code signed})
     * @param sha256      SHA-256 of the envelope bytes
     */
    public record Verified(long version, Instant expires, Map<String, byte[]> files, Map<String, Script> scripts,
                           List<String> signers, long rootVersion, String rootSha256, String sha256) {
    }

    /** Why a bundle is refused: a stable code ({@code bundle_rollback}, {@code signature_threshold_not_met}, ...) and the detail. */
    public static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        private final String code;

        public Refused(String code, String message) {
            super(message, null, false, false);
            this.code = code;
        }

        public String code() {
            return code;
        }
    }

    /**
     * Verifies {@code envelope} against the root at {@code rootFile}.
     *
     * @param floorVersion     the installed bundle's version: the new one must be above it
     * @param floorRootVersion the root version trusted before: the root walked to may not be below it
     */
    public static Verified verify(byte[] envelope, Path rootFile, long floorVersion, long floorRootVersion, Instant at)
            throws Refused {
        try {
            return run(envelope, rootFile, floorVersion, floorRootVersion, at);
        } catch (Untrusted e) {
            return failed(e.failure().code(), e.getMessage());
        }
    }

    private static Verified failed(String code, String message) throws Refused {
        throw new Refused(code, message);
    }

    private static Verified run(byte[] bytes, Path rootFile, long floorVersion, long floorRootVersion, Instant at)
            throws Untrusted, Refused {
        TrustRoot root = TrustRoot.parse(read(rootFile), rootFile.toString());
        if (root.signers(root.signedBytes(), root.signatures()).size() < root.threshold()) {
            throw TrustFailure.ROOT_SIGNATURE_THRESHOLD_NOT_MET.because(rootFile + ": fewer than " + root.threshold()
                    + " of its own keys signed it");
        }
        root = rotate(root, rootFile);
        if (root.version() < floorRootVersion) {
            throw TrustFailure.ROOT_ROLLBACK.because("root version " + root.version() + " is below the trusted version "
                    + floorRootVersion);
        }
        if (!root.expires().isAfter(at)) {
            throw TrustFailure.ROOT_EXPIRED.because("root version " + root.version() + " expired at "
                    + Rfc3339.format(root.expires()));
        }
        Dsse.Envelope envelope = Dsse.parse(bytes, "bundle");
        if (!PAYLOAD_TYPE.equals(envelope.payloadType())) {
            throw TrustFailure.MANIFEST_WRONG_PAYLOAD_TYPE.because("payloadType is '" + envelope.payloadType()
                    + "', expected '" + PAYLOAD_TYPE + "'");
        }
        Set<String> signers = root.signers(envelope.pae(), envelope.signatures());
        if (signers.size() < root.threshold()) {
            throw TrustFailure.SIGNATURE_THRESHOLD_NOT_MET.because(signers.size() + " of " + root.threshold()
                    + " required keys of root version " + root.version() + " signed it ("
                    + envelope.signatures().size() + " signature(s) present; a key that is unknown to the root, or"
                    + " that a rotation removed, counts for nothing)");
        }
        Object document;
        try {
            document = Json.parse(envelope.payload(), JsonLimits.I_JSON);
        } catch (JsonException e) {
            throw TrustFailure.MANIFEST_MALFORMED.because("payload: " + e.getMessage());
        }
        Fields<Untrusted> f = Fields.of(document, "payload", TrustFailure.MANIFEST_MALFORMED);
        if (!TYPE.equals(f.string("_type"))) {
            throw TrustFailure.MANIFEST_WRONG_TYPE.because("payload _type is '" + f.string("_type") + "', expected '"
                    + TYPE + "'");
        }
        long version = f.positiveLong("version", 1);
        Instant expires = f.parsed("expires", Rfc3339::parse);
        if (version <= floorVersion) {
            return failed("bundle_rollback", "bundle version " + version + " is not above the installed version "
                    + floorVersion + " (rollback or replay refused)");
        }
        if (!expires.isAfter(at)) {
            return failed("bundle_expired", "bundle version " + version + " expired at " + Rfc3339.format(expires));
        }
        Fields<Untrusted> files = f.object("files");
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (String name : files.map().keySet()) {
            if (!FILES.contains(name)) {
                return failed("bundle_file_not_allowed", "bundle file '" + name + "' is not one of " + FILES);
            }
            byte[] content = files.string(name).getBytes(StandardCharsets.UTF_8);
            if (content.length > MAX_FILE_BYTES) {
                return failed("bundle_file_too_large", name + " is larger than " + MAX_FILE_BYTES + " bytes");
            }
            out.put(name, content);
        }
        if (out.isEmpty()) {
            return failed("bundle_empty", "the bundle carries none of " + FILES);
        }
        Map<String, Script> scripts = f.map().containsKey("scripts") ? scripts(f.object("scripts")) : Map.of();
        return new Verified(version, expires, out, scripts, List.copyOf(signers), root.version(), root.signedSha256(),
                Sha256.hex(bytes));
    }

    private static Map<String, Script> scripts(Fields<Untrusted> scripts) throws Untrusted, Refused {
        Map<String, Script> out = new LinkedHashMap<>();
        long total = 0;
        for (String name : scripts.map().keySet()) {
            String bad = badScriptName(name);
            if (bad != null) {
                failed("bundle_script_name_invalid", "bundle script '" + name + "': " + bad);
            }
            if (out.size() == MAX_SCRIPTS) {
                failed("bundle_too_many_scripts", "the bundle carries more than " + MAX_SCRIPTS + " scripts");
            }
            Fields<Untrusted> entry = scripts.object(name);
            String mode = entry.string("mode");
            if (!"0755".equals(mode) && !"0644".equals(mode)) {
                failed("bundle_script_mode_invalid", "bundle script '" + name + "' has mode '" + mode
                        + "', not 0755 or 0644");
            }
            String content = entry.string("content");
            if (content.length() > (MAX_SCRIPT_BYTES / 3 + 1) * 4) {
                failed("bundle_script_too_large", name + " is larger than " + MAX_SCRIPT_BYTES + " bytes");
            }
            byte[] bytes;
            try {
                bytes = Base64.getDecoder().decode(content);
            } catch (IllegalArgumentException e) {
                throw TrustFailure.MANIFEST_MALFORMED.because("bundle script '" + name + "': content is not base64");
            }
            if (bytes.length > MAX_SCRIPT_BYTES) {
                failed("bundle_script_too_large", name + " is larger than " + MAX_SCRIPT_BYTES + " bytes");
            }
            total += bytes.length;
            if (total > MAX_SCRIPTS_TOTAL_BYTES) {
                failed("bundle_scripts_too_large", "the bundle's scripts together are larger than "
                        + MAX_SCRIPTS_TOTAL_BYTES + " bytes");
            }
            if (!Sha256.hex(bytes).equals(entry.string("sha256"))) {
                failed("bundle_script_digest_mismatch", "bundle script '" + name + "': content does not match its sha256");
            }
            out.put(name, new Script(bytes, "0755".equals(mode)));
        }
        return out;
    }

    /**
     * Why {@code name} cannot be a bundle script's path, or {@code null}: a relative path of
     * {@code /}-separated plain segments (no empty, {@code .} or {@code ..} segment, no backslash or
     * control character), not one of the bundle's own files.
     */
    public static String badScriptName(String name) {
        if (name.isEmpty() || name.length() > MAX_SCRIPT_NAME_CHARS) {
            return "a path of 1 to " + MAX_SCRIPT_NAME_CHARS + " characters is required";
        }
        if (FILES.contains(name) || "bundle.json".equals(name)) {
            return "is the name of a bundle file";
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '\\') {
                return "holds a control character or backslash";
            }
        }
        for (String segment : name.split("/", -1)) {
            if (segment.isEmpty() || ".".equals(segment) || "..".equals(segment)) {
                return "is not a plain relative path (empty, '.' or '..' segment, or a leading '/')";
            }
        }
        return null;
    }

    private static TrustRoot rotate(TrustRoot root, Path rootFile) throws Untrusted {
        Path dir = rootFile.toAbsolutePath().getParent();
        for (int step = 0; step < ReleaseVerifier.MAX_ROTATIONS; step++) {
            Path next = dir.resolve((root.version() + 1) + ".root.json");
            if (!Files.isRegularFile(next)) {
                return root;
            }
            TrustRoot newer = TrustRoot.parse(read(next), next.toString());
            if (newer.version() != root.version() + 1) {
                throw TrustFailure.ROOT_ROTATION_VERSION_MISMATCH.because(next + " holds version " + newer.version());
            }
            if (root.signers(newer.signedBytes(), newer.signatures()).size() < root.threshold()) {
                throw TrustFailure.ROOT_ROTATION_OLD_THRESHOLD_NOT_MET.because(next + ": too few keys of root version "
                        + root.version() + " signed it");
            }
            if (newer.signers(newer.signedBytes(), newer.signatures()).size() < newer.threshold()) {
                throw TrustFailure.ROOT_ROTATION_NEW_THRESHOLD_NOT_MET.because(next + ": too few of its own keys signed it");
            }
            root = newer;
        }
        throw TrustFailure.ROOT_MALFORMED.because("more than " + ReleaseVerifier.MAX_ROTATIONS + " root rotations");
    }

    private static byte[] read(Path file) throws Untrusted {
        try {
            return dev.agentwarden.io.StateFiles.readAll(file, ReleaseVerifier.MAX_ROOT_BYTES, true);
        } catch (NoSuchFileException e) {
            throw TrustFailure.ROOT_UNREADABLE.because(file + " does not exist");
        } catch (IOException e) {
            throw TrustFailure.ROOT_UNREADABLE.because("cannot read " + file + ": " + e.getMessage());
        }
    }

    /** A bundle of {@code files} (name to UTF-8 text) signed by each of {@code keyFiles}: the envelope's JSON. */
    public static byte[] sign(Map<String, byte[]> files, long version, Instant expires, List<Path> keyFiles)
            throws ReleaseException {
        return sign(files, Map.of(), version, expires, keyFiles);
    }

    /** A bundle of {@code files} and {@code scripts} (relative path to script) signed by each of {@code keyFiles}. */
    public static byte[] sign(Map<String, byte[]> files, Map<String, Script> scripts, long version, Instant expires,
                              List<Path> keyFiles) throws ReleaseException {
        Map<String, Object> fileMap = new LinkedHashMap<>();
        for (Map.Entry<String, byte[]> e : files.entrySet()) {
            if (!FILES.contains(e.getKey())) {
                throw new ReleaseException("bundle_file_not_allowed", e.getKey() + " is not one of " + FILES);
            }
            fileMap.put(e.getKey(), new String(e.getValue(), StandardCharsets.UTF_8));
        }
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("_type", TYPE);
        payload.put("version", version);
        payload.put("expires", Rfc3339.format(expires));
        payload.put("files", fileMap);
        if (!scripts.isEmpty()) {
            payload.put("scripts", scriptMap(scripts));
        }
        byte[] body = Json.write(payload).getBytes(StandardCharsets.UTF_8);
        byte[] pae = Dsse.pae(PAYLOAD_TYPE, body);
        List<SignatureEntry> sigs = new ArrayList<>();
        for (Path keyFile : keyFiles) {
            SigningKey key = KeyFiles.readSigningKey(keyFile);
            try {
                sigs.add(new SignatureEntry(key.keyId(), Ed25519.sign(key.privateKey(), pae)));
            } catch (GeneralSecurityException e) {
                throw new ReleaseException("sign_failed", keyFile + ": " + e.getMessage(), e);
            }
        }
        Map<String, Object> doc = Dsse.document(new Dsse.Envelope(PAYLOAD_TYPE, body, sigs));
        return (Json.write(doc) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    private static Map<String, Object> scriptMap(Map<String, Script> scripts) throws ReleaseException {
        if (scripts.size() > MAX_SCRIPTS) {
            throw new ReleaseException("bundle_too_many_scripts", "more than " + MAX_SCRIPTS + " scripts");
        }
        Map<String, Object> out = new java.util.TreeMap<>();
        long total = 0;
        for (Map.Entry<String, Script> e : scripts.entrySet()) {
            String bad = badScriptName(e.getKey());
            if (bad != null) {
                throw new ReleaseException("bundle_script_name_invalid", "script '" + e.getKey() + "': " + bad);
            }
            byte[] bytes = e.getValue().bytes();
            if (bytes.length > MAX_SCRIPT_BYTES) {
                throw new ReleaseException("bundle_script_too_large", e.getKey() + " is larger than "
                        + MAX_SCRIPT_BYTES + " bytes");
            }
            total += bytes.length;
            if (total > MAX_SCRIPTS_TOTAL_BYTES) {
                throw new ReleaseException("bundle_scripts_too_large", "the scripts together are larger than "
                        + MAX_SCRIPTS_TOTAL_BYTES + " bytes");
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("sha256", Sha256.hex(bytes));
            entry.put("mode", e.getValue().executable() ? "0755" : "0644");
            entry.put("content", Base64.getEncoder().encodeToString(bytes));
            out.put(e.getKey(), entry);
        }
        return new LinkedHashMap<>(out);
    }
}
