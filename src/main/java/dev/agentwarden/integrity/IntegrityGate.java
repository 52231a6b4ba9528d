package dev.agentwarden.integrity;

import dev.agentwarden.integrity.agentfile.BoundaryProfile;
import dev.agentwarden.release.ReleaseSource;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The pre-ingestion integrity gate for hosts that assemble prompts themselves:
 * {@code select → read → attach(bytes) → verdict}, evaluated outside the prompt.
 *
 * <pre>{@code
 * IntegrityGate gate = IntegrityGate.builder()
 *         .profile(BoundaryProfile.squad())
 *         .release(ReleaseSources.unsigned(manifest))
 *         .projectEvidenceLog(projectRoot.resolve(".warden"))
 *         .build();
 * GateSession session = gate.select(AgentSelection.of("squad", agentFile)
 *         .withAgentVersion("0.13.1").withClient("my-host", "2.0"));
 * byte[] payload = session.read();
 * byte[] attached = assemble(payload);          // exactly the bytes placed in the prompt
 * session.attach(attached, "my-host.system-prompt");
 * GateVerdict verdict = session.verdict();
 * if (verdict.halts()) { stop(verdict.outcome()); }
 * }</pre>
 *
 * A gate is immutable and may open any number of sessions; a session is single-threaded.
 */
public final class IntegrityGate {
    /** Largest agent file a gate reads unless told otherwise (1 MiB). */
    public static final long DEFAULT_MAX_BYTES = SourceReader.DEFAULT_MAX_BYTES;
    /** Largest {@link Builder#maxBytes} accepted. */
    public static final long MAX_MAX_BYTES = SourceReader.MAX_MAX_BYTES;

    private final BoundaryProfile profile;
    private final ReleaseSource release;
    private final EvidenceLog evidenceLog;
    private final Clock clock;
    private final long maxBytes;
    private final boolean requireTrustedManifest;
    private final String sessionPrefix;

    private IntegrityGate(Builder b) {
        this.profile = b.profile;
        this.release = b.release;
        this.evidenceLog = b.evidenceLog;
        this.clock = b.clock;
        this.maxBytes = b.maxBytes;
        this.requireTrustedManifest = b.requireTrustedManifest;
        this.sessionPrefix = b.sessionPrefix;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Records {@code selected_agent_id} (persisted before the agent file is touched) and opens the
     * session.
     */
    public GateSession select(AgentSelection selection) {
        return select(selection, new SourceReader(maxBytes));
    }

    GateSession select(AgentSelection selection, SourceReader reader) {
        Objects.requireNonNull(selection, "selection");
        GateSession session = new GateSession(newRecorder(), release, reader, profile, selection.file(), logFile());
        session.recordSelection(new IntegrityEvent.SelectedAgentId(
                new IntegrityEvent.CustomAgent(selection.name(), selection.fileLabel(), selection.role()),
                selection.agentVersion(), selection.clientId(), selection.clientVersion(), selection.hostSessionId(),
                selection.resolution(), profile, requireTrustedManifest));
        return session;
    }

    /**
     * Records the host's proof that the gated agent was not selected and returns the finished
     * session (SKIP).
     *
     * @param gatedAgent      the agent this gate guards
     * @param selectedInstead what was selected instead ({@code default} or another agent id)
     * @param proof           how the host knows
     */
    public GateVerdict notSelected(String gatedAgent, String selectedInstead, String proof) {
        GateSession session = new GateSession(newRecorder(), release, null, profile, null, logFile());
        session.recordSelection(new IntegrityEvent.AgentNotSelected(gatedAgent, selectedInstead, proof));
        return session.verdict();
    }

    /** The project's evidence log under its {@code .warden} directory {@code stateHome} ({@code state/integrity/evidence.jsonl}). */
    public static Path evidenceLogFile(Path stateHome) {
        return EvidenceLog.under(stateHome).file();
    }

    private Path logFile() {
        return evidenceLog == null ? null : evidenceLog.file();
    }

    private Recorder newRecorder() {
        return new Recorder(newSessionId(), clock, evidenceLog);
    }

    private String newSessionId() {
        return sessionPrefix + "-" + STAMP.format(clock.instant()) + "-"
                + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    }

    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    /** Configures a gate; every setting has a safe default. */
    public static final class Builder {
        private BoundaryProfile profile = BoundaryProfile.squad();
        private ReleaseSource release = ReleaseSource.NONE;
        private EvidenceLog evidenceLog;
        private Clock clock = Clock.systemUTC();
        private long maxBytes = SourceReader.DEFAULT_MAX_BYTES;
        private boolean requireTrustedManifest;
        private String sessionPrefix = "api";

        private Builder() {
        }

        /** How completeness is proven (default {@code squad}). */
        public Builder profile(BoundaryProfile p) {
            this.profile = Objects.requireNonNull(p);
            return this;
        }

        /** The trusted release manifest (default none: every session is UNREGISTERED). */
        public Builder release(ReleaseSource r) {
            this.release = Objects.requireNonNull(r);
            return this;
        }

        /**
         * Appends events as they happen to the project's log ({@link #evidenceLogFile}) under the
         * {@code .warden} directory {@code stateHome}; no directory from the project down may be a
         * link. {@code null} keeps them in memory only (the default).
         */
        public Builder projectEvidenceLog(Path stateHome) {
            return evidenceLog(stateHome == null ? null : EvidenceLog.under(stateHome));
        }

        /**
         * Appends events as they happen to {@code file}; only the file itself is checked when
         * written (no link, regular). {@code null} keeps them in memory only (the default).
         */
        public Builder evidenceLog(Path file) {
            return evidenceLog(file == null ? null : new EvidenceLog(file));
        }

        Builder evidenceLog(EvidenceLog log) {
            this.evidenceLog = log;
            return this;
        }

        /** The only source of time (default the system UTC clock). */
        public Builder clock(Clock c) {
            this.clock = Objects.requireNonNull(c);
            return this;
        }

        /** Largest agent file read (default 1 MiB). */
        public Builder maxBytes(long n) {
            this.maxBytes = n;
            return this;
        }

        /**
         * Whether the release must come from a manifest verified against a trust root (default no).
         * When set, any other source (an unsigned list, a store of your own, none, an untrusted
         * signed manifest) halts with UNKNOWN_HALT instead of being reported.
         */
        public Builder requireTrustedManifest(boolean b) {
            this.requireTrustedManifest = b;
            return this;
        }

        /** Prefix of generated session ids, naming the entry point ({@code api}, {@code check}, …). */
        public Builder sessionPrefix(String prefix) {
            this.sessionPrefix = Objects.requireNonNull(prefix);
            return this;
        }

        public IntegrityGate build() {
            if (maxBytes < 1 || maxBytes > SourceReader.MAX_MAX_BYTES) {
                throw new IllegalArgumentException("maxBytes must be within 1.." + SourceReader.MAX_MAX_BYTES);
            }
            return new IntegrityGate(this);
        }
    }

    /** A rejected integrity input or event, with a stable machine code such as {@code event_out_of_order}. */
    public static final class IntegrityException extends RuntimeException {
        private final String code;

        public IntegrityException(String code, String message) {
            super(code + ": " + message);
            this.code = code;
        }

        public IntegrityException(String code, String message, Throwable cause) {
            super(code + ": " + message, cause);
            this.code = code;
        }

        public String code() {
            return code;
        }
    }
}
