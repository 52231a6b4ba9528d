package dev.agentwarden.release;

import dev.agentwarden.json.Fields;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import dev.agentwarden.release.TrustFailure.Untrusted;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The body of a release manifest: an in-toto Statement v1 whose subjects are the registered
 * artifacts (name = agent id, digest.sha256) and whose predicate
 * ({@value #PREDICATE_TYPE}) holds {@code version}, {@code expires} and {@code entries}.
 *
 * @param version the manifest's version, from 1; never accepted below the last trusted one
 * @param expires when the manifest stops being trusted
 * @param entries registered releases, unique per (agent_version, client_id, client_version)
 */
record ReleaseManifest(long version, Instant expires, List<ManifestEntry> entries) {
    static final String PAYLOAD_TYPE = "application/vnd.in-toto+json";
    static final String STATEMENT_TYPE = "https://in-toto.io/Statement/v1";
    static final String PREDICATE_TYPE = "https://agentwarden.dev/release-manifest/v1";
    static final int MAX_ENTRIES = 100_000;

    /** Reads a statement's bytes (already signature-checked when verifying). */
    static ReleaseManifest parse(byte[] statementJson, String source) throws Untrusted {
        Object document;
        try {
            document = Json.parse(statementJson, JsonLimits.I_JSON);
        } catch (JsonException e) {
            throw TrustFailure.MANIFEST_MALFORMED.because(source + " payload: " + e.getMessage());
        }
        Fields<Untrusted> statement = Fields.of(document, source + " payload", TrustFailure.MANIFEST_MALFORMED);
        String type = statement.string("_type");
        if (!STATEMENT_TYPE.equals(type)) {
            throw TrustFailure.MANIFEST_WRONG_TYPE.because(statement.where("_type") + " is '" + type
                    + "', expected '" + STATEMENT_TYPE + "'");
        }
        String predicateType = statement.string("predicateType");
        if (!PREDICATE_TYPE.equals(predicateType)) {
            throw TrustFailure.MANIFEST_WRONG_TYPE.because(statement.where("predicateType") + " is '" + predicateType
                    + "', expected '" + PREDICATE_TYPE + "'");
        }
        Fields<Untrusted> predicate = statement.object("predicate");
        long version = predicate.positiveLong("version", 1);
        Instant expires = predicate.parsed("expires", Rfc3339::parse);
        List<?> rawEntries = predicate.list("entries", MAX_ENTRIES);
        List<ManifestEntry> entries = new ArrayList<>(rawEntries.size());
        Map<ReleaseKey, Integer> seen = new HashMap<>();
        for (int i = 0; i < rawEntries.size(); i++) {
            ManifestEntry entry = readEntry(Fields.of(rawEntries.get(i), predicate.where("entries") + "[" + i + "]",
                    TrustFailure.MANIFEST_MALFORMED));
            Integer earlier = seen.put(entry.key(), i);
            if (earlier != null) {
                throw TrustFailure.MANIFEST_DUPLICATE_ENTRY.because("entries[" + earlier + "] and entries[" + i
                        + "] both register " + describe(entry.key()));
            }
            entries.add(entry);
        }
        checkSubjects(statement, entries);
        return new ReleaseManifest(version, expires, List.copyOf(entries));
    }

    private static ManifestEntry readEntry(Fields<Untrusted> e) throws Untrusted {
        String normalization = e.optionalString("normalization");
        String normalizedSha = e.has("normalized_sha256") && e.map().get("normalized_sha256") != null
                ? e.sha256("normalized_sha256") : null;
        if ((normalization == null) != (normalizedSha == null)) {
            throw TrustFailure.MANIFEST_MALFORMED.because(e.path()
                    + ": normalization and normalized_sha256 go together");
        }
        return new ManifestEntry(e.string("agent_id"), e.string("agent_version"), e.string("client_id"),
                e.string("client_version"), e.sha256("sha256"), e.positiveLong("length", 0), normalizedSha,
                normalization);
    }

    /** The subjects must name exactly the (agent id, sha256) pairs the entries register. */
    private static void checkSubjects(Fields<Untrusted> statement, List<ManifestEntry> entries) throws Untrusted {
        List<?> subjects = statement.list("subject", MAX_ENTRIES);
        TreeSet<String> named = new TreeSet<>();
        for (int i = 0; i < subjects.size(); i++) {
            Fields<Untrusted> subject = Fields.of(subjects.get(i), statement.where("subject") + "[" + i + "]",
                    TrustFailure.MANIFEST_MALFORMED);
            named.add(subject.string("name") + "@" + subject.object("digest").sha256("sha256"));
        }
        TreeSet<String> registered = new TreeSet<>();
        for (ManifestEntry entry : entries) {
            registered.add(entry.agentId() + "@" + entry.sha256());
        }
        if (!named.equals(registered)) {
            TreeSet<String> missing = new TreeSet<>(registered);
            missing.removeAll(named);
            TreeSet<String> extra = new TreeSet<>(named);
            extra.removeAll(registered);
            throw TrustFailure.MANIFEST_SUBJECT_MISMATCH.because("subjects and entries disagree; entries without a subject: "
                    + missing + ", subjects without an entry: " + extra);
        }
    }

    /** The in-toto Statement for this manifest. */
    Map<String, Object> toStatement() {
        Map<String, Map<String, Object>> subjects = new TreeMap<>();
        for (ManifestEntry entry : entries) {
            Map<String, Object> digest = new LinkedHashMap<>();
            digest.put("sha256", entry.sha256());
            Map<String, Object> subject = new LinkedHashMap<>();
            subject.put("name", entry.agentId());
            subject.put("digest", digest);
            subjects.put(entry.agentId() + "@" + entry.sha256(), subject);
        }
        List<Object> entryList = new ArrayList<>();
        for (ManifestEntry entry : entries) {
            entryList.add(entry.toJson());
        }
        Map<String, Object> predicate = new LinkedHashMap<>();
        predicate.put("version", version);
        predicate.put("expires", Rfc3339.format(expires));
        predicate.put("entries", entryList);
        Map<String, Object> statement = new LinkedHashMap<>();
        statement.put("_type", STATEMENT_TYPE);
        statement.put("subject", new ArrayList<Object>(subjects.values()));
        statement.put("predicateType", PREDICATE_TYPE);
        statement.put("predicate", predicate);
        return statement;
    }

    static String describe(ReleaseKey key) {
        return "(agent_version " + key.agentVersion() + ", client_id " + key.clientId() + ", client_version "
                + key.clientVersion() + ")";
    }
}
