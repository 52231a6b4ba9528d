package dev.agentwarden.integrity;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.integrity.GateVerdict.Evaluation;
import dev.agentwarden.integrity.IntegrityGate.IntegrityException;
import dev.agentwarden.integrity.agentfile.AttachForm;
import dev.agentwarden.integrity.agentfile.BoundaryProfile;
import dev.agentwarden.release.ReleaseSource;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One gated session, opened by {@link IntegrityGate#select}. Calls must follow the frozen order
 * (read, then attach, then verdict); a call out of order throws {@link IntegrityException} with
 * {@code event_out_of_order} or {@code event_duplicate}. Skipping a step is allowed and resolves to
 * UNKNOWN_HALT. If the evidence log cannot be written, the session continues in memory and its
 * outcome is UNKNOWN_HALT ({@code evidence_log_unwritable}): evidence that was not kept is not
 * evidence.
 */
public final class GateSession {
    private final Recorder recorder;
    private final ReleaseSource release;
    private final SourceReader reader;
    private final BoundaryProfile profile;
    private final Path file;
    private final Path evidenceFile;
    private final List<String> problems = new ArrayList<>();
    private byte[] source;
    private SourceReader.SourceRead sourceRead;
    private GateVerdict verdict;

    GateSession(Recorder recorder, ReleaseSource release, SourceReader reader, BoundaryProfile profile, Path file,
                Path evidenceFile) {
        this.recorder = recorder;
        this.evidenceFile = evidenceFile;
        this.release = release;
        this.reader = reader;
        this.profile = profile;
        this.file = file;
    }

    /** The evidence session id. */
    public String id() {
        return recorder.session();
    }

    void recordSelection(IntegrityEvent selection) {
        record(selection);
    }

    /**
     * Reads the agent file once and records {@code payload_read_status}.
     *
     * @return the bytes read (empty when none); the caller owns the array
     */
    public byte[] read() {
        open();
        if (reader == null) {
            throw new IntegrityException("event_after_not_selected", "this session did not select an agent");
        }
        SourceReader.SourceRead r = reader.read(file, profile);
        record(r.event());
        source = r.bytes();
        sourceRead = r;
        return source.clone();
    }

    /**
     * Records, as this session's {@code payload_read_status}, the read {@code earlier} (a session of
     * the same selection) made: for an entry point that reads the agent once and gates many prompts
     * against that one read (the model proxy of {@code warden launch --observe-prompt}).
     *
     * @throws IntegrityException {@code event_out_of_order} when {@code earlier} has not read yet
     */
    public void adoptRead(GateSession earlier) {
        open();
        if (reader == null) {
            throw new IntegrityException("event_after_not_selected", "this session did not select an agent");
        }
        SourceReader.SourceRead read = earlier.sourceRead;
        if (read == null) {
            throw new IntegrityException("event_out_of_order", "the session to adopt a read from has not read");
        }
        record(read.event());
        source = read.bytes().clone();
        sourceRead = read;
    }

    /** The bytes {@link #read} (or {@link #adoptRead}) gave, or {@code null} before; the caller owns the array. */
    public byte[] readBytes() {
        return source == null ? null : source.clone();
    }

    /** The last {@code read()} result's status, or {@code null} before a read. */
    public ReadStatus readStatus() {
        IntegrityEvent.PayloadReadStatus read = readEvent();
        return read == null ? null : read.status();
    }

    /**
     * Records {@code prompt_attach_status} for the bytes the host placed in the prompt: ATTACHED_FULL
     * when they are exactly the bytes read, NOT_ATTACHED when empty, else ATTACHED_PARTIAL.
     * {@code attached_sha} is computed here over exactly these bytes.
     *
     * @param attached the payload as it stands in the assembled prompt
     * @param channel  how the host attached it (free text for the evidence, e.g. {@code system-prompt})
     */
    public void attach(byte[] attached, String channel) {
        AttachStatus status;
        String reason = null;
        if (attached.length == 0) {
            status = AttachStatus.NOT_ATTACHED;
            reason = "nothing_attached: the attached artifact is empty";
        } else if (source == null || source.length == 0) {
            status = AttachStatus.ATTACHED_FULL;
            reason = "no_source_bytes: nothing was read to compare the attachment with";
        } else if (Arrays.equals(attached, source)) {
            status = AttachStatus.ATTACHED_FULL;
        } else {
            status = AttachStatus.ATTACHED_PARTIAL;
            reason = isPrefix(attached, source)
                    ? "attach_prefix: " + attached.length + " of " + source.length + " bytes reached the prompt"
                    : "attach_differs: the attached bytes are not the bytes read";
        }
        attachAs(status, attached, channel, true, reason);
    }

    /**
     * Records {@code prompt_attach_status} for a host that attaches a form of the file (its body)
     * rather than the file: ATTACHED_FULL when {@code attached} is exactly that form of the bytes
     * read, NOT_ATTACHED when empty, else ATTACHED_PARTIAL. {@code attached_sha} is computed over
     * exactly {@code attached}; {@code source_form_sha} over the form the gate derives from its read.
     */
    public void attachForm(byte[] attached, AttachForm form, String channel) {
        open();
        if (attached.length == 0) {
            notAttached("nothing_attached: no " + form.wire() + " of the agent was found in the prompt", channel);
            return;
        }
        byte[] expected = source == null ? new byte[0] : form.apply(source);
        AttachStatus status;
        String reason = null;
        if (expected.length == 0) {
            status = AttachStatus.ATTACHED_FULL;
            reason = "no_source_bytes: nothing was read to compare the attachment with";
        } else if (Arrays.equals(attached, expected)) {
            status = AttachStatus.ATTACHED_FULL;
        } else {
            status = AttachStatus.ATTACHED_PARTIAL;
            reason = isPrefix(attached, expected)
                    ? "attach_prefix: " + attached.length + " of " + expected.length + " bytes of the " + form.wire()
                    + " reached the prompt"
                    : "attach_differs: the attached bytes are not the " + form.wire() + " of the bytes read";
        }
        record(new IntegrityEvent.PromptAttachStatus(status, Sha256.hex(attached), attached.length,
                profile.check(attached), channel, true, reason, form.wire(),
                expected.length == 0 ? null : Sha256.hex(expected)));
    }

    /** Records that nothing was attached, with why. */
    public void notAttached(String reason, String channel) {
        open();
        record(new IntegrityEvent.PromptAttachStatus(AttachStatus.NOT_ATTACHED, null, 0, null, channel, false, reason));
    }

    /**
     * Records an attach result the caller classified itself, e.g. a clip the gate prevented from
     * being emitted ({@code emitted=false}).
     */
    public void attachAs(AttachStatus status, byte[] artifact, String channel, boolean emitted, String reason) {
        open();
        boolean none = status == AttachStatus.NOT_ATTACHED;
        record(new IntegrityEvent.PromptAttachStatus(status, none ? null : Sha256.hex(artifact),
                none ? 0 : artifact.length, none ? null : profile.check(artifact), channel, emitted, reason));
    }

    /**
     * Evaluates the session from its raw events, records {@code transport_integrity},
     * {@code release_integrity} and the decision, and closes the session. Calling it again returns
     * the same verdict.
     */
    public GateVerdict verdict() {
        if (verdict != null) {
            return verdict;
        }
        Evaluation evaluation = Evaluator.evaluate(recorder.plainEvents(), release, problems);
        if (evaluation.transport() != null) {
            record(evaluation.transport());
        }
        if (evaluation.release() != null) {
            record(evaluation.release());
        }
        record(evaluation.decision());
        verdict = new GateVerdict(id(), List.copyOf(recorder.events()), evaluation, evidenceFile);
        return verdict;
    }

    /** Problems that make this session's evidence incomplete (e.g. the log could not be written). */
    public List<String> problems() {
        return List.copyOf(problems);
    }

    private IntegrityEvent.PayloadReadStatus readEvent() {
        for (Recorded r : recorder.events()) {
            if (r.event() instanceof IntegrityEvent.PayloadReadStatus p) {
                return p;
            }
        }
        return null;
    }

    private void open() {
        if (verdict != null) {
            throw new IntegrityException("event_after_decision", "the session already has its verdict");
        }
    }

    private void record(IntegrityEvent event) {
        try {
            recorder.record(event);
        } catch (IOException e) {
            if (problems.isEmpty()) {
                problems.add("evidence_log_unwritable: " + e.getClass().getSimpleName() + " " + e.getMessage());
            }
        }
    }

    private static boolean isPrefix(byte[] prefix, byte[] whole) {
        return prefix.length < whole.length && Arrays.equals(prefix, 0, prefix.length, whole, 0, prefix.length);
    }

    /**
     * {@code payload_read_status}: the READ-dimension result of one agent-file read attempt.
     * {@code TRUNCATED} is reserved for a partial read proven by byte counts (fewer bytes read than the
     * file held when it was opened); a complete read whose attachment was clipped is {@code LOADED}.
     */
    public enum ReadStatus {
        LOADED, TRUNCATED, EMPTY, ABSENT
    }

    /** {@code prompt_attach_status}: what of the payload actually reached the assembled prompt. */
    public enum AttachStatus {
        ATTACHED_FULL, ATTACHED_PARTIAL, NOT_ATTACHED
    }
}
