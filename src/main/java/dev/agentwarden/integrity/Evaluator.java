package dev.agentwarden.integrity;

import dev.agentwarden.integrity.GateSession.ReadStatus;
import dev.agentwarden.integrity.GateVerdict.Evaluation;
import dev.agentwarden.integrity.IntegrityEvent.AgentNotSelected;
import dev.agentwarden.integrity.IntegrityEvent.PayloadReadStatus;
import dev.agentwarden.integrity.IntegrityEvent.PromptAttachStatus;
import dev.agentwarden.integrity.IntegrityEvent.SelectedAgentId;
import dev.agentwarden.integrity.Outcome.ReleaseIntegrity;
import dev.agentwarden.integrity.Outcome.TransportIntegrity;
import dev.agentwarden.integrity.agentfile.BoundaryProfile;
import dev.agentwarden.release.ReleaseEntry;
import dev.agentwarden.release.ReleaseKey;
import dev.agentwarden.release.ReleaseLookup;
import dev.agentwarden.release.ReleaseSource;
import dev.agentwarden.release.ReleaseSources;
import dev.agentwarden.release.ReleaseStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The seed's decision function, evaluated outside the prompt from raw events only. Recorded
 * verdicts in the input are ignored.
 *
 * <p>Transport is judged on two sides, and proven loss on either side wins over missing evidence:
 * <ul>
 *   <li>source: the read must be LOADED with consistent counts (bytes read equal the size at open,
 *   end of file reached, file unchanged across the read) and complete by the profile: both markers
 *   in place, or for profile {@code none} the manifest's expected length. A hash alone never proves
 *   completeness: a partial read matches an equally partial attachment.</li>
 *   <li>attachment: ATTACHED_FULL with {@code attached_sha == source_sha_after_read}, the same length
 *   (or, for a host that attaches a form of the file such as its body, {@code attached_sha} equal to
 *   the gate's {@code source_form_sha} of the bytes read)
 *   and the markers in place. A payload read whole but attached clipped or not at all is PARTIAL.</li>
 * </ul>
 *
 * <p>Release compares only {@code source_sha_after_read} (or its normalized SHA under the entry's
 * profile) with the trusted manifest entry for (agent_version, client_id, client_version). Expected
 * SHAs come only from the store; {@code attached_sha} is never consulted. When the selection requires
 * a trusted manifest, only a store {@linkplain ReleaseStore#verifiedAgainstTrustRoot() verified
 * against a trust root} is consulted: an unsigned list, or no manifest, answers UNTRUSTED and halts.
 */
final class Evaluator {
    private Evaluator() {
    }

    /**
     * Evaluates one session.
     *
     * @param events   the session's accepted events in order (verdict events are ignored)
     * @param release  the trusted release manifest to consult
     * @param problems evidence problems found while collecting the events (rejected or torn lines);
     *                 any problem makes the outcome UNKNOWN_HALT
     */
    public static Evaluation evaluate(List<IntegrityEvent> events, ReleaseSource release, List<String> problems) {
        SelectedAgentId selection = null;
        AgentNotSelected notSelected = null;
        PayloadReadStatus read = null;
        PromptAttachStatus attach = null;
        for (IntegrityEvent e : events) {
            switch (e.kind()) {
                case SELECTED_AGENT_ID:
                    selection = (SelectedAgentId) e;
                    break;
                case AGENT_NOT_SELECTED:
                    notSelected = (AgentNotSelected) e;
                    break;
                case PAYLOAD_READ_STATUS:
                    read = (PayloadReadStatus) e;
                    break;
                case PROMPT_ATTACH_STATUS:
                    attach = (PromptAttachStatus) e;
                    break;
                default:
                    break;
            }
        }
        List<String> evidenceProblems = problems == null ? List.of() : problems;
        if (selection == null) {
            if (notSelected != null && read == null && attach == null && evidenceProblems.isEmpty()) {
                return new Evaluation(null, null, new IntegrityEvent.Decision(Outcome.SKIP, List.of(
                        "agent_not_selected: host proved '" + notSelected.gatedAgent() + "' was not selected (selected: "
                                + notSelected.selectedInstead() + ")")));
            }
            List<String> reasons = new ArrayList<>();
            reasons.add("missing_selected_agent_id: no selection record; absent evidence is never success and never 'not selected'");
            reasons.addAll(evidenceProblems);
            return new Evaluation(
                    new IntegrityEvent.TransportVerdict(TransportIntegrity.UNKNOWN, List.of(reasons.get(0))),
                    unregistered(null, "no_selection", null),
                    new IntegrityEvent.Decision(Outcome.UNKNOWN_HALT, reasons));
        }
        ReleaseLookup lookup = lookup(selection, release);
        IntegrityEvent.TransportVerdict transport = transport(selection, read, attach, lookup);
        IntegrityEvent.ReleaseVerdict releaseVerdict = release(selection, read, lookup, release.ref());
        return new Evaluation(transport, releaseVerdict, decide(selection, transport, releaseVerdict, evidenceProblems));
    }

    private static IntegrityEvent.Decision decide(SelectedAgentId selection, IntegrityEvent.TransportVerdict transport,
                                                  IntegrityEvent.ReleaseVerdict release, List<String> problems) {
        List<String> reasons = new ArrayList<>();
        Outcome outcome;
        if (!problems.isEmpty()) {
            outcome = Outcome.UNKNOWN_HALT;
            reasons.addAll(problems);
        } else {
            switch (transport.value()) {
                case PARTIAL:
                    outcome = Outcome.HALT_CORRUPT;
                    reasons.addAll(transport.reasons());
                    break;
                case UNKNOWN:
                    outcome = Outcome.UNKNOWN_HALT;
                    reasons.addAll(transport.reasons());
                    break;
                case INTACT:
                default:
                    switch (release.value()) {
                        case MISMATCH:
                            outcome = Outcome.HALT_RELEASE_MISMATCH;
                            break;
                        case VERIFIED:
                            outcome = Outcome.LOADED;
                            break;
                        case UNREGISTERED:
                        default:
                            if (ReleaseLookup.Status.UNTRUSTED.name().equals(release.lookup())
                                    && selection.requireTrustedManifest()) {
                                outcome = Outcome.UNKNOWN_HALT;
                                reasons.add("release_manifest_untrusted_required: the release manifest is untrusted ("
                                        + release.reason() + ") and a trusted manifest is required");
                            } else {
                                outcome = Outcome.LOADED_WITH_REPORT;
                            }
                            break;
                    }
                    break;
            }
        }
        if (release.reason() != null) {
            reasons.add("release " + release.value() + ": " + release.reason());
        }
        return new IntegrityEvent.Decision(outcome, reasons);
    }

    private static IntegrityEvent.TransportVerdict transport(SelectedAgentId selection, PayloadReadStatus read,
                                                           PromptAttachStatus attach, ReleaseLookup lookup) {
        List<String> partial = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        BoundaryProfile profile = selection.profile();
        boolean sourceBytes = false;
        if (read == null) {
            unknown.add("missing_payload_read_status: no read result after the selection record");
        } else {
            switch (read.status()) {
                case ABSENT:
                    unknown.add("payload_absent: " + orDefault(read.reason(), "no bytes could be read"));
                    break;
                case EMPTY:
                    unknown.add("payload_empty: the agent file holds no bytes");
                    break;
                case TRUNCATED:
                    sourceBytes = true;
                    if (read.countsProveTruncation()) {
                        partial.add("read_truncated: read " + read.bytesRead() + " of " + read.expectedBytes() + " bytes"
                                + (read.reason() == null ? "" : " (" + read.reason() + ")"));
                    } else {
                        unknown.add("truncated_without_proof: TRUNCATED without expected_bytes > bytes_read");
                    }
                    break;
                case LOADED:
                default:
                    sourceBytes = true;
                    sourceSide(profile, read, lookup, selection, partial, unknown);
                    break;
            }
        }
        if (attach == null) {
            unknown.add("missing_prompt_attach_status: no attach result after the read");
        } else {
            attachSide(profile, read, attach, sourceBytes, partial, unknown);
        }
        if (!partial.isEmpty()) {
            partial.addAll(unknown);
            return new IntegrityEvent.TransportVerdict(TransportIntegrity.PARTIAL, partial);
        }
        if (!unknown.isEmpty()) {
            return new IntegrityEvent.TransportVerdict(TransportIntegrity.UNKNOWN, unknown);
        }
        return new IntegrityEvent.TransportVerdict(TransportIntegrity.INTACT, List.of(
                "source complete by " + (profile.usesMarkers() ? "boundary markers (profile " + profile.name() + ")"
                        : "registered byte length") + "; attached_sha == source_sha_after_read"));
    }

    private static void sourceSide(BoundaryProfile profile, PayloadReadStatus read, ReleaseLookup lookup,
                                   SelectedAgentId selection, List<String> partial, List<String> unknown) {
        if (read.sourceShaAfterRead() == null) {
            unknown.add("read_without_sha: LOADED without source_sha_after_read");
            return;
        }
        if (!read.sourceStable()) {
            unknown.add("source_changed_during_read: size, mtime, ctime or file identity changed while reading"
                    + (read.reason() == null ? "" : " (" + read.reason() + ")"));
            return;
        }
        if (read.expectedBytes() < 0 || read.bytesRead() != read.expectedBytes() || !read.eofReached()) {
            unknown.add("read_counts_inconsistent: LOADED with " + read.bytesRead() + " bytes read of "
                    + read.expectedBytes() + " expected, eof_reached=" + read.eofReached());
            return;
        }
        if (profile.usesMarkers()) {
            switch (profile.proof(read.boundaries())) {
                case COMPLETE:
                    return;
                case MISSING_EOF:
                    partial.add("source_missing_eof_boundary: the head marker is present but the last non-empty line is not "
                            + profile.eof());
                    return;
                case MISSING_HEAD:
                    partial.add("source_missing_head_boundary: the EOF marker is present but " + profile.head()
                            + " is not on its own line within the first " + profile.headWithinLines() + " lines");
                    return;
                case NO_MARKERS:
                default:
                    unknown.add("no_boundary_evidence: none of profile " + profile.name()
                            + "'s markers is in place, so completeness cannot be proven");
                    return;
            }
        }
        ReleaseEntry entry = matchingEntry(selection, lookup);
        if (entry == null || entry.length() < 0) {
            unknown.add("no_expected_length: profile none proves completeness only by the release manifest's expected"
                    + " byte length, and no entry for this key gives one");
        } else if (read.bytesRead() < entry.length()) {
            partial.add("short_byte_length: read " + read.bytesRead() + " bytes, the registered release has " + entry.length());
        } else if (read.bytesRead() > entry.length()) {
            unknown.add("length_exceeds_registered: read " + read.bytesRead() + " bytes, the registered release has "
                    + entry.length() + "; completeness cannot be proven by length");
        }
    }

    private static void attachSide(BoundaryProfile profile, PayloadReadStatus read, PromptAttachStatus attach,
                                   boolean sourceBytes, List<String> partial, List<String> unknown) {
        switch (attach.status()) {
            case NOT_ATTACHED:
                if (read != null && read.status() == ReadStatus.LOADED) {
                    partial.add("not_attached: the payload was read but did not reach the prompt"
                            + (attach.reason() == null ? "" : " (" + attach.reason() + ")"));
                }
                return;
            case ATTACHED_PARTIAL:
                if (!sourceBytes) {
                    unknown.add("attached_without_source: an attachment was recorded but no source bytes were read");
                    return;
                }
                partial.add("attach_clipped: " + (attach.reason() != null ? attach.reason()
                        : attach.attachedBytes() + " bytes reached the prompt" + (read == null ? "" : " of " + read.bytesRead() + " read")));
                return;
            case ATTACHED_FULL:
            default:
                break;
        }
        if (!sourceBytes || read.sourceShaAfterRead() == null) {
            unknown.add("attached_without_source: an attachment was recorded but no source bytes were read");
            return;
        }
        if (attach.attachedSha() == null) {
            unknown.add("attach_without_sha: ATTACHED_FULL without attached_sha");
            return;
        }
        if (attach.form() != null) {
            if (attach.sourceFormSha() == null) {
                unknown.add("attach_form_without_sha: attached as " + attach.form() + " without source_form_sha");
                return;
            }
            if (!attach.attachedSha().equals(attach.sourceFormSha())) {
                partial.add("attached_sha_differs: the attached artifact is not the bytes read (as " + attach.form() + ")");
                return;
            }
        } else if (!attach.attachedSha().equals(read.sourceShaAfterRead())) {
            partial.add("attached_sha_differs: the attached artifact is not the bytes read");
            return;
        }
        if (attach.form() == null && attach.attachedBytes() != read.bytesRead()) {
            partial.add("attached_length_differs: " + attach.attachedBytes() + " bytes attached, " + read.bytesRead() + " read");
            return;
        }
        if (profile.usesMarkers() && profile.proof(attach.boundaries()) != BoundaryProfile.Proof.COMPLETE
                && profile.proof(read.boundaries()) == BoundaryProfile.Proof.COMPLETE) {
            partial.add("attached_missing_boundary: the attached artifact lacks a marker the source has");
        }
    }

    private static ReleaseLookup lookup(SelectedAgentId selection, ReleaseSource release) {
        ReleaseKey key = selection.releaseKey();
        if (key.agentVersion() == null || key.clientId() == null || key.clientVersion() == null) {
            return ReleaseLookup.notRegistered("release_key_incomplete: (agent_version, client_id, client_version) = ("
                    + key.agentVersion() + ", " + key.clientId() + ", " + key.clientVersion() + ")");
        }
        if (release.store() == null) {
            return selection.requireTrustedManifest()
                    ? ReleaseLookup.untrusted("no_release_manifest: no manifest verified against a trust root is configured")
                    : ReleaseLookup.notRegistered("no_release_manifest: no trusted release manifest is configured");
        }
        ReleaseLookup answer;
        try {
            answer = release.store().lookup(key);
        } catch (RuntimeException e) {
            return ReleaseLookup.untrusted("release_store_error: " + e.getMessage());
        }
        if (answer == null) {
            return ReleaseLookup.untrusted("release_store_error: the store gave no answer");
        }
        if (answer.status() != ReleaseLookup.Status.UNTRUSTED && selection.requireTrustedManifest()
                && !release.store().verifiedAgainstTrustRoot()) {
            return ReleaseLookup.untrusted(ReleaseSources.UNSIGNED_MANIFEST);
        }
        return answer;
    }

    /** The FOUND entry when it is registered for the selected agent, else {@code null}. */
    private static ReleaseEntry matchingEntry(SelectedAgentId selection, ReleaseLookup lookup) {
        if (lookup.status() != ReleaseLookup.Status.FOUND || lookup.entry() == null) {
            return null;
        }
        ReleaseEntry entry = lookup.entry();
        if (entry.agentId() != null && !entry.agentId().equals(selection.customAgent().name())) {
            return null;
        }
        return entry;
    }

    private static IntegrityEvent.ReleaseVerdict release(SelectedAgentId selection, PayloadReadStatus read,
                                                         ReleaseLookup lookup, Map<String, String> manifest) {
        String status = lookup.status().name();
        switch (lookup.status()) {
            case NOT_REGISTERED:
                return unregistered(status, lookup.reason(), manifest);
            case UNTRUSTED:
                return unregistered(status, "release_manifest_untrusted: " + lookup.reason(), manifest);
            case FOUND:
            default:
                break;
        }
        ReleaseEntry entry = matchingEntry(selection, lookup);
        if (entry == null) {
            return unregistered(status, "release_entry_other_agent: the entry for this key is registered for '"
                    + lookup.entry().agentId() + "', not '" + selection.customAgent().name() + "'", manifest);
        }
        if (read == null || read.status() != ReadStatus.LOADED || read.sourceShaAfterRead() == null || !read.sourceStable()) {
            return new IntegrityEvent.ReleaseVerdict(ReleaseIntegrity.UNREGISTERED, status, null, entry.sha256(),
                    entry.normalizedSha256(), "source_not_comparable: no complete, stable read to compare with the release",
                    manifest);
        }
        String source = read.sourceShaAfterRead();
        if (source.equalsIgnoreCase(entry.sha256())) {
            return new IntegrityEvent.ReleaseVerdict(ReleaseIntegrity.VERIFIED, status, "sha256", entry.sha256(),
                    entry.normalizedSha256(), null, manifest);
        }
        if (entry.normalization() != null && entry.normalizedSha256() != null) {
            String normalized = read.normalizedSha256() == null ? null : read.normalizedSha256().get(entry.normalization());
            if (normalized == null) {
                return new IntegrityEvent.ReleaseVerdict(ReleaseIntegrity.UNREGISTERED, status, null, entry.sha256(),
                        entry.normalizedSha256(), "release_normalization_unknown: the entry needs normalization '"
                        + entry.normalization() + "', which this host does not compute", manifest);
            }
            if (normalized.equalsIgnoreCase(entry.normalizedSha256())) {
                return new IntegrityEvent.ReleaseVerdict(ReleaseIntegrity.VERIFIED, status, "normalized:" + entry.normalization(),
                        entry.sha256(), entry.normalizedSha256(), null, manifest);
            }
        }
        return new IntegrityEvent.ReleaseVerdict(ReleaseIntegrity.MISMATCH, status,
                entry.normalization() != null ? "normalized:" + entry.normalization() : "sha256", entry.sha256(),
                entry.normalizedSha256(), "release_mismatch: source_sha_after_read " + source + " is not the release registered for ("
                + selection.agentVersion() + ", " + selection.clientId() + ", " + selection.clientVersion() + ")", manifest);
    }

    private static IntegrityEvent.ReleaseVerdict unregistered(String lookup, String reason, Map<String, String> manifest) {
        return new IntegrityEvent.ReleaseVerdict(ReleaseIntegrity.UNREGISTERED, lookup, null, null, null, reason, manifest);
    }

    private static String orDefault(String s, String fallback) {
        return s == null ? fallback : s;
    }
}
