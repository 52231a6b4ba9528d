package dev.agentwarden.release;

import dev.agentwarden.json.Fields;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import dev.agentwarden.release.TrustFailure.Untrusted;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Dead Simple Signing Envelope v1: {@code {"payloadType", "payload": base64(body), "signatures":
 * [{"keyid", "sig": base64}]}}. Signatures cover {@link #pae} of the type and the exact body bytes,
 * so the body needs no canonical form.
 */
final class Dsse {
    private Dsse() {
    }

    /** One parsed envelope. */
    record Envelope(String payloadType, byte[] payload, List<SignatureEntry> signatures) {

        /** The bytes every signature covers. */
        byte[] pae() {
            return Dsse.pae(payloadType, payload);
        }
    }

    /**
     * The DSSE v1 pre-authentication encoding:
     * {@code "DSSEv1" SP len(type) SP type SP len(body) SP body}, lengths in ASCII decimal bytes.
     */
    static byte[] pae(String payloadType, byte[] body) {
        byte[] type = payloadType.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(type.length + body.length + 32);
        out.writeBytes(("DSSEv1 " + type.length + " ").getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(type);
        out.writeBytes((" " + body.length + " ").getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(body);
        return out.toByteArray();
    }

    static Envelope parse(byte[] json, String source) throws Untrusted {
        Object document;
        try {
            document = Json.parse(json, JsonLimits.I_JSON);
        } catch (JsonException e) {
            throw TrustFailure.MANIFEST_MALFORMED.because(source + ": " + e.getMessage());
        }
        Fields<Untrusted> top = Fields.of(document, source, TrustFailure.MANIFEST_MALFORMED);
        String payloadType = top.string("payloadType");
        byte[] payload = decodeBase64(top.string("payload"));
        if (payload == null) {
            throw TrustFailure.MANIFEST_MALFORMED.because(top.where("payload") + " is not base64");
        }
        List<SignatureEntry> signatures = SignatureEntry.readAll(top, TrustFailure.MANIFEST_MALFORMED, false);
        return new Envelope(payloadType, payload, signatures);
    }

    /** The envelope as JSON, signatures base64 (standard alphabet, padded). */
    static Map<String, Object> document(Envelope envelope) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("payloadType", envelope.payloadType());
        document.put("payload", Base64.getEncoder().encodeToString(envelope.payload()));
        List<Object> sigs = new ArrayList<>();
        for (SignatureEntry s : envelope.signatures()) {
            Map<String, Object> sig = new LinkedHashMap<>();
            if (s.keyIdHint() != null) {
                sig.put("keyid", s.keyIdHint());
            }
            sig.put("sig", Base64.getEncoder().encodeToString(s.signature()));
            sigs.add(sig);
        }
        document.put("signatures", sigs);
        return document;
    }

    /** Standard or URL-safe base64, padding optional; {@code null} when it is neither. */
    static byte[] decodeBase64(String text) {
        boolean urlSafe = text.indexOf('-') >= 0 || text.indexOf('_') >= 0;
        try {
            return (urlSafe ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
