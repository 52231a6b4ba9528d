package dev.agentwarden.integrity;

import dev.agentwarden.integrity.GateSession.AttachStatus;
import dev.agentwarden.integrity.GateSession.ReadStatus;
import dev.agentwarden.integrity.Outcome.ReleaseIntegrity;
import dev.agentwarden.integrity.Outcome.TransportIntegrity;
import dev.agentwarden.integrity.agentfile.Boundaries;
import dev.agentwarden.integrity.agentfile.BoundaryProfile;
import dev.agentwarden.release.ReleaseKey;
import java.util.List;
import java.util.Map;

/**
 * One entry of a session's ordered evidence, in the seed's vocabulary. The raw events are the
 * selection record, the read result and the attach result; {@code transport_integrity},
 * {@code release_integrity} and {@code decision} are verdicts the host computed from them, which a
 * re-evaluation recomputes and never trusts.
 */
sealed interface IntegrityEvent permits IntegrityEvent.SelectedAgentId, IntegrityEvent.AgentNotSelected,
        IntegrityEvent.PayloadReadStatus, IntegrityEvent.PromptAttachStatus, IntegrityEvent.TransportVerdict,
        IntegrityEvent.ReleaseVerdict, IntegrityEvent.Decision {

    Kind kind();

    /**
     * Event kinds with their wire names and their slot in the frozen order. The two selection
     * kinds share the first slot: a session has exactly one of them.
     */
    enum Kind {
        SELECTED_AGENT_ID("selected_agent_id", 1, true),
        AGENT_NOT_SELECTED("agent_not_selected", 1, true),
        PAYLOAD_READ_STATUS("payload_read_status", 2, true),
        PROMPT_ATTACH_STATUS("prompt_attach_status", 3, true),
        TRANSPORT_INTEGRITY("transport_integrity", 4, false),
        RELEASE_INTEGRITY("release_integrity", 5, false),
        DECISION("decision", 6, false);

        private final String wire;
        private final int slot;
        private final boolean raw;

        Kind(String wire, int slot, boolean raw) {
            this.wire = wire;
            this.slot = slot;
            this.raw = raw;
        }

        public String wire() {
            return wire;
        }

        /** Position in the frozen order; a later event must have a larger slot. */
        public int slot() {
            return slot;
        }

        /** Whether this is host-observed evidence (as opposed to a verdict computed from it). */
        public boolean raw() {
            return raw;
        }

        /** The kind for a wire name, or {@code null}. */
        public static Kind fromWire(String wire) {
            for (Kind k : values()) {
                if (k.wire.equals(wire)) {
                    return k;
                }
            }
            return null;
        }
    }

    /**
     * {@code custom_agent}: the raw host identity of the selected agent.
     *
     * @param name agent id ({@code squad})
     * @param file the agent file as the host resolved it (project-relative when inside the project)
     * @param role the agent's role ({@code root-coordinator}), or {@code null}
     */
    record CustomAgent(String name, String file, String role) {
    }

    /**
     * {@code selected_agent_id}: the immutable selection record, created before any access to the
     * agent file. Its {@code selected_at} and {@code selection_order} are the record's time and
     * sequence number. It also fixes the host policy the session is judged by, so the payload can
     * never choose it.
     *
     * @param customAgent            the selected agent
     * @param agentVersion           the resolved agent/template version the host expects, or {@code null}
     * @param clientId               host client identifier, or {@code null}
     * @param clientVersion          host client version, or {@code null}
     * @param hostSessionId          the host's own session id, or {@code null}
     * @param resolution             which location won the agent lookup, or {@code null}
     * @param profile                the boundary profile completeness is proven by
     * @param requireTrustedManifest whether a release not looked up in a manifest verified against a trust root halts
     */
    record SelectedAgentId(CustomAgent customAgent, String agentVersion, String clientId, String clientVersion,
                           String hostSessionId, String resolution, BoundaryProfile profile,
                           boolean requireTrustedManifest) implements IntegrityEvent {
        @Override
        public Kind kind() {
            return Kind.SELECTED_AGENT_ID;
        }

        /** The release-manifest key of this selection. */
        public ReleaseKey releaseKey() {
            return new ReleaseKey(agentVersion, clientId, clientVersion);
        }
    }

    /**
     * {@code agent_not_selected}: the host's proof that the gated agent was not selected.
     *
     * @param gatedAgent      the agent this gate guards ({@code squad})
     * @param selectedInstead what the host selected instead ({@code default} or another agent id)
     * @param proof           how the host knows, e.g. {@code host_selection_state}
     */
    record AgentNotSelected(String gatedAgent, String selectedInstead, String proof) implements IntegrityEvent {
        @Override
        public Kind kind() {
            return Kind.AGENT_NOT_SELECTED;
        }
    }

    /**
     * {@code payload_read_status} with the host's read evidence.
     *
     * @param status              the read result
     * @param sourceShaAfterRead  hex SHA-256 of the bytes read, or {@code null} when none were read
     * @param normalizedSha256    SHA-256 of the bytes read under each normalization profile
     * @param bytesRead           bytes actually read
     * @param expectedBytes       the file's size when it was opened, or -1 when unknown
     * @param eofReached          whether the read ended at end of file
     * @param sourceStable        whether size, mtime, ctime and file identity were unchanged across the read
     * @param boundaries          the profile's markers in the bytes read, or {@code null}
     * @param stampedVersion      the version the file stamps itself with (information only, never a key)
     * @param realPath            the resolved target when the agent path is a symbolic link, else {@code null}
     * @param reason              machine code explaining a non-LOADED or unstable read, else {@code null}
     */
    record PayloadReadStatus(ReadStatus status, String sourceShaAfterRead, Map<String, String> normalizedSha256,
                             long bytesRead, long expectedBytes, boolean eofReached, boolean sourceStable,
                             Boundaries boundaries, String stampedVersion, String realPath, String reason)
            implements IntegrityEvent {
        @Override
        public Kind kind() {
            return Kind.PAYLOAD_READ_STATUS;
        }

        /** Whether the byte counts prove a partial read. */
        public boolean countsProveTruncation() {
            return expectedBytes >= 0 && bytesRead < expectedBytes;
        }
    }

    /**
     * {@code prompt_attach_status}: what reached the assembled prompt.
     *
     * @param status        the attach result
     * @param attachedSha   hex SHA-256 the host computed over the attached artifact, or {@code null}
     * @param attachedBytes length of the attached artifact in bytes
     * @param boundaries    the profile's markers in the attached artifact, or {@code null}
     * @param channel       how it was attached ({@code claude.additionalContext}, {@code launch.copy}, …)
     * @param emitted       whether the artifact was actually handed on; {@code false} when the gate
     *                      stopped a clipped attachment before the host could take it
     * @param reason        machine code explaining a non-full attach, else {@code null}
     * @param form          the form of the bytes read that the host attaches ({@link AttachForm#wire()}),
     *                      or {@code null} when it attaches the file exactly as read
     * @param sourceFormSha hex SHA-256 the gate computed over the bytes read in that {@code form}: what
     *                      {@code attached_sha} must equal; {@code null} without a form
     */
    record PromptAttachStatus(AttachStatus status, String attachedSha, long attachedBytes, Boundaries boundaries,
                              String channel, boolean emitted, String reason, String form, String sourceFormSha)
            implements IntegrityEvent {
        /** An attachment of the file exactly as read. */
        public PromptAttachStatus(AttachStatus status, String attachedSha, long attachedBytes, Boundaries boundaries,
                                  String channel, boolean emitted, String reason) {
            this(status, attachedSha, attachedBytes, boundaries, channel, emitted, reason, null, null);
        }

        @Override
        public Kind kind() {
            return Kind.PROMPT_ATTACH_STATUS;
        }
    }

    /** {@code transport_integrity} with the reasons that decided it. */
    record TransportVerdict(TransportIntegrity value, List<String> reasons) implements IntegrityEvent {
        @Override
        public Kind kind() {
            return Kind.TRANSPORT_INTEGRITY;
        }
    }

    /**
     * {@code release_integrity} with its provenance.
     *
     * @param value            the verdict
     * @param lookup           what the release store answered ({@code FOUND}, {@code NOT_REGISTERED},
     *                         {@code UNTRUSTED}), or {@code null} when it was not asked
     * @param basis            {@code sha256} or {@code normalized:<profile>} for VERIFIED and
     *                         MISMATCH, else {@code null}
     * @param expectedSha256   the manifest's raw SHA, or {@code null}
     * @param expectedNormalizedSha256 the manifest's normalized SHA, or {@code null}
     * @param reason           machine code for UNREGISTERED and MISMATCH, else {@code null}
     * @param manifest         the manifest consulted ({@code path} and {@code sha256}), or {@code null}
     */
    record ReleaseVerdict(ReleaseIntegrity value, String lookup, String basis, String expectedSha256,
                          String expectedNormalizedSha256, String reason, Map<String, String> manifest)
            implements IntegrityEvent {
        @Override
        public Kind kind() {
            return Kind.RELEASE_INTEGRITY;
        }
    }

    /** The decision function's outcome and why. */
    record Decision(Outcome outcome, List<String> reasons) implements IntegrityEvent {
        @Override
        public Kind kind() {
            return Kind.DECISION;
        }
    }
}
