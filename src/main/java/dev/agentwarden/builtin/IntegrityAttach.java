package dev.agentwarden.builtin;

import dev.agentwarden.concern.Concern;
import dev.agentwarden.concern.ConcernContext;
import dev.agentwarden.concern.ConcernResult;
import dev.agentwarden.concern.Replay;
import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.concern.Posture;
import dev.agentwarden.integrity.GateSession.AttachStatus;
import dev.agentwarden.integrity.GateSession.ReadStatus;
import dev.agentwarden.integrity.IntegrityGate.IntegrityException;
import dev.agentwarden.launch.AgentResolver;
import dev.agentwarden.integrity.AgentSelection;
import dev.agentwarden.integrity.GateSession;
import dev.agentwarden.integrity.GateVerdict;
import dev.agentwarden.integrity.IntegrityGate;
import dev.agentwarden.release.ReleaseLookup;
import dev.agentwarden.release.ReleaseFloor;
import dev.agentwarden.release.ReleaseSource;
import dev.agentwarden.release.ReleaseSources;
import dev.agentwarden.release.ReleaseStoreException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Built-in {@code integrity-attach}: Claude Code attach mode. On {@code session_start} it selects the
 * configured agent, reads its file once, and attaches the payload itself as the hook's
 * {@code additionalContext}, so {@code attached_sha} is computed over exactly the text it emits. A
 * payload longer than the host's hook-output cap ({@link Host#outputCapChars}) would be clipped by the host; the gate records that clip as ATTACHED_PARTIAL and halts
 * (HALT_CORRUPT) instead of emitting it. Any halt stops the session ({@code continue: false} with a
 * stopReason). Every step goes to the evidence log. Bound to {@code user_prompt_submit} as well, it
 * repeats a start-time halt on every prompt of that session ({@link HaltedSessions}): Claude Code
 * in {@code -p} mode ignores {@code continue: false} from SessionStart but honours it there.
 *
 * <p>Settings ({@link AttachSettings}, checked when the manifest is compiled): {@code agent} (required); {@code file} (default: resolved like Copilot CLI from the
 * workspace root); {@code role}; {@code profile} ({@code squad} | {@code markers} | {@code none},
 * default {@code squad}) with {@code head_marker} / {@code eof_marker}; {@code release_manifest};
 * {@code trust_root} (makes {@code release_manifest} a signed manifest); {@code agent_version};
 * {@code client_id} (default {@code claude-code}); {@code client_version};
 * {@code require_trusted_manifest}; {@code max_chars} (default the host cap); {@code max_bytes};
 * {@code sources} (SessionStart sources to act on; default all).
 *
 * <p>In replay mode ({@link Replay}) it evaluates as ever but writes nothing: the evidence stays in
 * memory and no halt marker is recorded or cleared.
 *
 * <p>Its own failures never fail open: a misconfiguration or an internal error halts with
 * UNKNOWN_HALT, because a gate that cannot run has not proven anything.
 */
public final class IntegrityAttach implements Concern {
    public static final String NAME = "integrity-attach";
    static final String CHANNEL = "claude.additionalContext";

    /** The settings, or {@code null} to read them from the concern's spec on each event. */
    private final AttachSettings settings;

    /** Reads its settings from the concern's spec on each event; a bad setting halts then. */
    public IntegrityAttach() {
        this(null);
    }

    /** Runs with settings checked when the manifest was compiled. */
    public IntegrityAttach(AttachSettings settings) {
        this.settings = settings;
    }

    @Override
    public ConcernResult evaluate(ConcernContext context) {
        EventName event = context.event().event();
        if (event == EventName.USER_PROMPT_SUBMIT) {
            return enforceStartHalt(context);
        }
        if (event != EventName.SESSION_START) {
            return ConcernResult.error(NAME + " runs on session_start and user_prompt_submit, not " + event.wire());
        }
        ConcernResult result;
        try {
            AttachSettings s = settings != null ? settings : AttachSettings.from(context.spec().settings());
            if (!sourceSelected(s, context.event())) {
                return ConcernResult.allow();
            }
            result = run(context, s);
        } catch (IllegalArgumentException | IntegrityException e) {
            result = ConcernResult.halt("integrity UNKNOWN_HALT: " + NAME + " is misconfigured: " + settingText(e.getMessage()));
        } catch (RuntimeException e) {
            result = ConcernResult.halt("integrity UNKNOWN_HALT: " + NAME + " failed: " + e);
        }
        rememberOutcome(context, result);
        return result;
    }

    /** {@code key: problem} from {@link AttachSettings} as {@code settings.key problem}; other text as is. */
    private static String settingText(String message) {
        int colon = message == null ? -1 : message.indexOf(": ");
        if (colon <= 0 || !AttachSettings.KEYS.contains(message.substring(0, colon))) {
            return message;
        }
        return "settings." + message.substring(0, colon) + " " + message.substring(colon + 2);
    }

    /**
     * On user_prompt_submit: a session the gate halted at start stays halted. Hosts that ignore
     * {@code continue: false} on SessionStart (Claude Code in {@code -p} mode) honour it here.
     */
    private static ConcernResult enforceStartHalt(ConcernContext context) {
        String session = context.event().sessionId();
        if (session.isEmpty()) {
            return ConcernResult.allow();
        }
        try {
            String reason = new HaltedSessions(context.stateHome()).reason(session);
            return reason == null ? ConcernResult.allow()
                    : ConcernResult.halt(reason + " [halted at session start; no prompt may run in this session]");
        } catch (java.io.IOException e) {
            return ConcernResult.error("cannot read the session's halt marker: " + e.getMessage());
        }
    }

    /** Keeps a start-time halt for the session's later prompts, and forgets it once a start passes. */
    private static void rememberOutcome(ConcernContext context, ConcernResult result) {
        String session = context.event().sessionId();
        if (session.isEmpty() || Replay.active(context.env())) {
            return;
        }
        HaltedSessions halted = new HaltedSessions(context.stateHome());
        try {
            if (result.decision() == dev.agentwarden.concern.Decision.HALT) {
                halted.record(session, result.reason());
            } else {
                halted.clear(session);
            }
        } catch (java.io.IOException e) {
            // The SessionStart answer still halts; only the follow-up enforcement is lost.
        }
    }

    private static ConcernResult run(ConcernContext context, AttachSettings s) {
        ConcernSpec spec = context.spec();
        HookEvent event = context.event();
        String agent = s.agent();
        Path root = Path.of(event.workspaceRoot());
        Path file;
        String label;
        String resolution;
        String configured = s.file();
        if (configured != null) {
            file = root.resolve(configured).normalize();
            label = configured;
            resolution = "settings.file";
        } else {
            AgentResolver.Resolution r = AgentResolver.resolve(agent, root, context.env());
            file = r.chosen() != null ? r.chosen() : r.searched().get(0);
            label = r.chosen() != null ? r.fileLabel() : r.root().relativize(file).toString();
            resolution = r.location() != null ? r.location().label() : "not_found (available: " + r.available() + ")";
        }
        Host host = Hosts.byId(event.host());
        long cap = host == null || host.outputCapChars() == 0 ? Long.MAX_VALUE : host.outputCapChars();
        long maxChars = s.maxChars() == 0 ? cap : Math.min(s.maxChars(), cap);
        IntegrityGate gate = IntegrityGate.builder()
                .profile(s.profile())
                .release(releaseSource(s.releaseManifest(), s.trustRoot(), s.requireTrustedManifest(), root,
                        ReleaseFloor.forProject(root, context.env()), context.clock()))
                .projectEvidenceLog(Replay.active(context.env()) ? null : context.stateHome())
                .clock(context.clock())
                .maxBytes(s.maxBytes())
                .requireTrustedManifest(s.requireTrustedManifest())
                .sessionPrefix(event.host())
                .build();
        GateSession session = gate.select(AgentSelection.of(agent, file)
                .withFileLabel(label)
                .withRole(s.role())
                .withAgentVersion(s.agentVersion())
                .withClient(s.clientId(), s.clientVersion())
                .withHostSessionId(event.sessionId().isEmpty() ? null : event.sessionId())
                .withResolution(resolution));
        byte[] payload = session.read();
        String text = null;
        if (session.readStatus() != ReadStatus.LOADED) {
            session.notAttached("nothing_attached: the read was " + session.readStatus(), CHANNEL);
        } else if ((text = strictUtf8(payload)) == null) {
            session.notAttached("payload_not_utf8: additionalContext carries text and these bytes are not valid UTF-8",
                    CHANNEL);
        } else if (spec.posture() == Posture.SHADOW) {
            text = null;
            session.notAttached("posture_shadow: a shadow concern emits nothing", CHANNEL);
        } else if (text.length() > maxChars) {
            String kept = clip(text, (int) maxChars);
            session.attachAs(AttachStatus.ATTACHED_PARTIAL, kept.getBytes(StandardCharsets.UTF_8), CHANNEL, false,
                    "host_output_cap: the payload is " + text.length() + " characters; the host keeps " + maxChars
                            + " of a hook's additionalContext, so the gate withheld it");
            text = null;
        } else {
            session.attach(text.getBytes(StandardCharsets.UTF_8), CHANNEL);
        }
        GateVerdict verdict = session.verdict();
        if (verdict.halts()) {
            return ConcernResult.halt(haltReason(agent, verdict, context.stateHome()));
        }
        return text == null ? ConcernResult.allow() : ConcernResult.allowWithContext(text);
    }

    static String haltReason(String agent, GateVerdict verdict, Path stateHome) {
        List<String> reasons = verdict.evaluation().reasons();
        return "integrity " + verdict.outcome() + " for agent '" + agent + "': "
                + (reasons.isEmpty() ? "" : reasons.get(0))
                + " (session " + verdict.session() + "; evidence " + IntegrityGate.evidenceLogFile(stateHome) + ")";
    }

    private static boolean sourceSelected(AttachSettings s, HookEvent event) {
        if (s.sources() == null) {
            return true;
        }
        String source = event.sessionSource();
        return source == null || s.sources().contains(source);
    }

    private static ReleaseSource releaseSource(String manifest, String trustRoot, boolean requireTrusted, Path root,
                                               ReleaseFloor floor, java.time.Clock clock) {
        if (manifest == null) {
            if (trustRoot != null) {
                throw new IllegalArgumentException("settings.trust_root needs settings.release_manifest");
            }
            return ReleaseSource.NONE;
        }
        Path file = root.resolve(manifest).normalize();
        if (requireTrusted && trustRoot == null) {
            return ReleaseSources.unverified(file);
        }
        try {
            return ReleaseSources.open(file, trustRoot == null ? null : root.resolve(trustRoot).normalize(), floor, clock);
        } catch (ReleaseStoreException e) {
            Map<String, String> ref = new LinkedHashMap<>();
            ref.put("path", file.toString());
            String reason = e.getMessage();
            return new ReleaseSource(key -> ReleaseLookup.untrusted(reason), ref);
        }
    }

    /** The first {@code max} UTF-16 units of {@code text}, never splitting a surrogate pair. */
    static String clip(String text, int max) {
        int end = max;
        if (end > 0 && Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, end);
    }

    private static String strictUtf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
