package dev.agentwarden.dispatch;

import dev.agentwarden.decision.ChainResult;
import dev.agentwarden.decision.ConcernOutcome;
import dev.agentwarden.verdict.Verdict;
import dev.agentwarden.decision.DecisionDraft;
import dev.agentwarden.decision.DecisionLog;
import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.event.WorkspaceRoot;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.HostAdapter;
import dev.agentwarden.host.HostAdapters;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import dev.agentwarden.managed.LayerScripts;
import dev.agentwarden.managed.ManagedLayer;
import dev.agentwarden.managed.SignedProjectManifest;
import dev.agentwarden.managed.UserLayer;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.manifest.ManifestException;
import dev.agentwarden.manifest.ManifestLoader;
import dev.agentwarden.trust.ProjectManifest;
import dev.agentwarden.trust.ResolvedManifests;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One host event in, one host response out: {@code warden dispatch} in its own JVM ({@link #main}),
 * and the dispatch every transport reaches through {@link DispatchRuntime#respond}.
 *
 * <p>This is the hot path. It loads only the JDK, Warden's own JSON reader and the compiled
 * manifest: no CLI framework, no YAML (except on a manifest-cache miss), no reflection. It never
 * throws at the host and writes at most one JSON object to stdout.
 *
 * <p>Runtime failure mode: {@link FailMode}, which defines what each failure of Warden itself answers.
 *
 * <p>Every answer to a known host, including each early return (bad arguments, unreadable stdin,
 * an unknown event, a broken manifest, an internal error), is that host's adapter's rendering of a
 * verdict, so a host that needs JSON on an event (Codex's Stop) always gets it.
 */
public final class DispatchMain {
    /** Largest payload read from stdin; larger input counts as unreadable. */
    public static final int DEFAULT_MAX_PAYLOAD_BYTES = 8 * 1024 * 1024;
    /** Highest {@code WARDEN_MAX_PAYLOAD_BYTES} honoured; the read buffer's arithmetic stays within an int. */
    static final int MAX_PAYLOAD_BYTES_CEILING = 1 << 30;
    /** How long dispatch waits for the host to close stdin ({@code WARDEN_STDIN_TIMEOUT_MS}). */
    public static final long DEFAULT_STDIN_TIMEOUT_MS = 5000;
    /** Highest {@code WARDEN_STDIN_TIMEOUT_MS} honoured: Claude Code's and Codex's own hook timeout. */
    static final long STDIN_TIMEOUT_CEILING_MS = 600_000;

    private DispatchMain() {
    }

    /** {@code warden dispatch} in its own JVM: the one-shot transport. */
    public static void main(String[] argv) {
        // Hook output is UTF-8 JSON whatever the locale; System.out would encode with the platform
        // charset and turn every non-ASCII character into '?' under LANG=C.
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(System.err, false, StandardCharsets.UTF_8);
        HostResponse response = oneShot(argv, System.in, System.getenv(), Clock.systemUTC());
        if (!response.stdout().isEmpty()) {
            out.print(response.stdout());
        }
        if (!response.stderr().isEmpty()) {
            err.println(response.stderr());
        }
        out.flush();
        err.flush();
        // halt, not exit: from JDK 21 on, Runtime.exit consults a System.Logger, whose bootstrap
        // costs a cold process over 10 ms. Dispatch registers no shutdown hooks and has flushed.
        Runtime.getRuntime().halt(response.exitCode());
    }

    /** What {@link #main} answers for {@code argv} and {@code stdin}; {@code Training} runs the same steps. */
    static HostResponse oneShot(String[] argv, InputStream stdin, Map<String, String> env, Clock clock) {
        return DispatchRuntime.oneShot(clock).respond(DispatchRequest.read(DispatchRequest.Route.parse(argv), stdin,
                Caller.thisProcess(env), DispatchRequest.Transport.OWN_JVM));
    }

    /** One dispatch of {@code request} in {@code runtime}, filling in and recording {@code draft}. Never throws. */
    static HostResponse respond(DispatchRequest request, DecisionDraft draft, DispatchRuntime runtime) {
        HostResponse response;
        try {
            response = dispatch(request, draft, runtime);
        } catch (RuntimeException | Error e) {
            // Any Error too (a linkage error from a damaged jar, say): the host still gets an
            // answer in its protocol rather than a stack trace and no stdout.
            response = internalError(request, e, draft);
        }
        return DecisionLog.append(draft, response, request.env().map(), runtime.segments());
    }

    private static HostResponse dispatch(DispatchRequest request, DecisionDraft draft, DispatchRuntime runtime) {
        List<String> notes = new ArrayList<>();
        HostResponse response = dispatch(request, notes, draft, runtime);
        if (notes.isEmpty()) {
            return response;
        }
        String said = String.join("\n", notes);
        return new HostResponse(response.exitCode(), response.stdout(),
                response.stderr().isEmpty() ? said : said + "\n" + response.stderr());
    }

    /** One dispatch; what the manifest in force needs the user to know (trust, cache) goes to {@code notes}. */
    private static HostResponse dispatch(DispatchRequest request, List<String> notes, DecisionDraft draft,
                                         DispatchRuntime runtime) {
        Caller caller = request.caller();
        DispatchRequest.Env typed = request.env();
        Map<String, String> env = typed.map();
        Clock clock = runtime.clock();
        DispatchRequest.Route args = request.route();
        if (args.usage() != null) {
            String note = "warden dispatch: " + args.usage()
                    + "; usage: warden dispatch --host H [--native-event N] [--event E] [--manifest F] [--project-dir D]";
            HostAdapter adapter = HostAdapters.forId(String.valueOf(args.host()));
            draft.answered(Verdict.Kind.ALLOW);
            return adapter == null ? new HostResponse(0, "", note)
                    : noOpinion(adapter, args.nativeEvent(), note + "; allowing");
        }
        Host host = Hosts.byId(args.host());
        if (host == null) {
            return noAdapter(args.host(), request.failMode(), draft);
        }
        HostAdapter adapter = host.adapter();
        draft.host(args.host());
        String role = typed.role();
        ManagedLayer.State managed = ManagedLayer.load();
        boolean failClosedRuntime = managed.settings().failClosed(request.failMode() == FailMode.CLOSED);
        FailMode runtimeMode = failClosedRuntime ? FailMode.CLOSED : FailMode.OPEN;
        draft.retentionDays(managed.settings().retentionDays());

        DispatchRequest.Payload read = request.payload();
        if (read.crash() instanceof RuntimeException e) {
            throw e;
        }
        if (read.crash() instanceof Error e) {
            throw e;
        }
        byte[] raw = read.bytes();
        Map<String, Object> payload = null;
        DispatchRequest.PayloadProblem problem = read.problem();
        String problemDetail = read.detail();
        if (raw == null) {
            raw = new byte[0];
        } else {
            try {
                payload = parsePayload(raw);
                if (payload == null) {
                    problem = DispatchRequest.PayloadProblem.NOT_OBJECT;
                    problemDetail = "stdin is JSON but not an object";
                }
            } catch (JsonException e) {
                raw = new byte[0];
                problem = DispatchRequest.PayloadProblem.NOT_JSON;
                problemDetail = e.getMessage();
            }
        }
        String payloadProblem = problem == null ? null : problem.code() + ": " + problemDetail;
        Map<String, Object> fields = payload != null ? payload : new LinkedHashMap<>();
        String root = WorkspaceRoot.resolve(args.projectDir(), fields, env, caller.workingDir(),
                Hosts.projectDirVariables());
        String nativeEvent = adapter.refinedNativeEvent(args.nativeEvent() != null ? args.nativeEvent()
                : adapter.nativeEventOf(fields), fields);
        draft.at(root, nativeEvent, role);
        String captureDir = typed.captureDir();
        if (captureDir != null) {
            String note = Capture.save(caller.workingDir().resolve(captureDir), args.host(), nativeEvent, clock.millis(),
                    read.bytes(), payloadProblem);
            if (note != null) {
                notes.add(note);
            }
        }

        if (managed.refused()) {
            boolean canBlock = nativeEvent != null && adapter.capability(nativeEvent).canBlock();
            draft.ended("managed_refused", FailMode.CLOSED.wire(), canBlock ? Verdict.Kind.BLOCK : Verdict.Kind.ALLOW);
            return failRuntime(adapter, nativeEvent, FailMode.CLOSED, "warden: " + managed.problem());
        }
        UserLayer.State user = UserLayer.load(env, notes);
        if (user.refused()) {
            draft.userLayer(user.file().toString(), null, user.problem());
            if (failClosedRuntime) {
                boolean canBlock = nativeEvent != null && adapter.capability(nativeEvent).canBlock();
                draft.ended("user_refused", FailMode.CLOSED.wire(), canBlock ? Verdict.Kind.BLOCK : Verdict.Kind.ALLOW);
                return failRuntime(adapter, nativeEvent, FailMode.CLOSED, "warden: " + user.problem());
            }
            notes.add("warden: " + user.problem() + "; failing open (fail mode open), the other layers are in force");
        }
        Manifest manifest;
        ProjectManifest.Resolution located = null;
        try {
            ResolvedManifests kept = runtime.manifests();
            // loaded only where the administrator names signers
            ProjectManifest.Resolution signed = args.manifest() != null || managed.settings().signers().isEmpty() ? null
                    : SignedProjectManifest.resolve(root, managed.settings(), notes);
            if (signed != null) {
                located = signed;
                manifest = ManifestLoader.load(signed.source(), env, notes);
            } else if (kept != null) {
                ResolvedManifests.InForce inForce = kept.inForce(caller.resolve(args.manifest()), root, env, notes);
                located = inForce.resolution();
                draft.manifestFallback(located.fallback());
                if (inForce.unusable() != null) {
                    throw inForce.unusable();
                }
                manifest = inForce.manifest();
            } else {
                located = ProjectManifest.resolve(caller.resolve(args.manifest()), root, env);
                notes.addAll(located.notes());
                draft.manifestFallback(located.fallback());
                manifest = ManifestLoader.load(located.source(), env, notes);
            }
        } catch (ManifestException e) {
            String note = "warden: manifest unusable: " + e.getMessage()
                    + (e.problems().isEmpty() ? "" : " — " + e.problems().get(0));
            if (managed.manifest() != null || user.manifest() != null) {
                // a mistake above the managed or user layer never disables it: those layers run alone
                notes.add(note + "; the " + (user.manifest() == null ? "managed policy"
                        : managed.manifest() == null ? "user policy" : "managed and user policies") + " alone is in force");
                manifest = user.manifest() != null ? user.manifest() : managed.manifest();
                located = new ProjectManifest.Resolution(ManifestLoader.builtinDefault(), dev.agentwarden.trust.ScriptTrust.ANY, List.of());
            } else {
            draft.ended("manifest_unusable", runtimeMode.wire(), failClosedRuntime
                    && nativeEvent != null && adapter.capability(nativeEvent).canBlock() ? Verdict.Kind.BLOCK : Verdict.Kind.ALLOW);
            return failRuntime(adapter, nativeEvent, runtimeMode, note);
            }
        }
        manifest = managed.over(user.over(manifest, notes), notes);
        draft.manifest(manifest);
        draft.managed(managed.manifest());
        if (user.manifest() != null) {
            draft.userLayer(user.manifest().source(), user.manifest(), null);
        }
        EventName event = args.event() != null ? EventName.fromWire(args.event())
                : nativeEvent == null ? null : manifest.canonicalEvent(args.host(), nativeEvent);
        if (event == null) {
            String what = args.event() != null ? "unknown event '" + args.event() + "'"
                    : nativeEvent == null ? "no event named (pass --native-event, or send hook_event_name)"
                    : "unknown event '" + nativeEvent + "' (not aliased for " + args.host() + " in the manifest)";
            draft.ended("unknown_event", null, Verdict.Kind.ALLOW);
            return noOpinion(adapter, nativeEvent, "warden: " + what + "; nothing to do");
        }
        if (nativeEvent == null) {
            nativeEvent = event.wire();
        }
        draft.event(event.wire(), nativeEvent);
        if (event == EventName.SESSION_START) {
            String taken = HookPortCheck.problem(env);
            if (taken != null) {
                draft.ended("hook_port_taken", null, Verdict.Kind.HALT);
                return adapter.render(nativeEvent, new Verdict(Verdict.Kind.HALT, taken, null))
                        .withStderr("warden: " + taken);
            }
        }
        Dispatcher dispatcher = new Dispatcher(manifest, clock, env, caller.childEnv(),
                managed.manifest() == null && user.manifest() == null ? located.scripts()
                        : LayerScripts.over(located.scripts(), managed.manifest(), user.manifest()),
                caller.commandPrefix());
        if (problem != null) {
            if (adapter.capability(nativeEvent).canBlock() && dispatcher.hasFailClosedBlocker(args.host(), event, role)) {
                draft.ended(problem.code(), FailMode.CLOSED.wire(), Verdict.Kind.BLOCK);
                return adapter.render(nativeEvent, Verdict.block("event payload could not be read ("
                        + payloadProblem + ") and a fail_closed concern guards " + nativeEvent))
                        .withStderr("warden: " + payloadProblem + "; refused (fail_closed)");
            }
            draft.ended(problem.code(), FailMode.OPEN.wire(), Verdict.Kind.ALLOW);
            return noOpinion(adapter, nativeEvent, "warden: " + payloadProblem + "; allowing");
        }
        HookEvent hookEvent = adapter.normalize(nativeEvent, event, payload, raw, root);
        ChainResult chain = dispatcher.dispatch(hookEvent, role);
        // RewriteGate loads only when something rewrites: the default chain never does
        ChainResult result = chain.verdict().rewrites()
                ? RewriteGate.settle(chain, adapter.capability(nativeEvent), host.displayName(), nativeEvent) : chain;
        HostResponse response = adapter.render(nativeEvent, result.verdict());
        draft.ran(hookEvent, result, adapter, response);
        List<String> skipped = manifest.skipped(args.host(), event);
        if (!skipped.isEmpty()) {
            draft.chainSkipped(skipped);
            response = response.withStderr(skippedNote(manifest, args.host(), event, skipped));
        }
        if (result != chain) {
            response = response.withStderr(RewriteGate.note(chain, result));
        }
        for (ConcernOutcome o : result.outcomes()) {
            if (o.note() != null) {
                response = response.withStderr("warden: " + o.concern() + ": " + o.note());
            }
        }
        return response;
    }

    /**
     * What the user needs to hear when the manifest's chain for this event lost entries to mistakes
     * (an unknown concern, one listed twice): which, where, and that the rest of the chain ran.
     */
    static String skippedNote(Manifest manifest, String host, EventName event, List<String> skipped) {
        StringBuilder note = new StringBuilder("warden: ").append(manifest.source()).append(": platforms.")
                .append(host).append('.').append(event.wire()).append(": skipped ");
        for (int i = 0; i < skipped.size(); i++) {
            note.append(i == 0 ? "" : "; ").append(skipped.get(i));
        }
        return note.append("; the rest of the chain ran (fix it: `warden manifest lint`)").toString();
    }

    /**
     * An event Warden refuses to judge (a host HTTP hook that is not bound to the project its event
     * comes from), answered in {@code host}'s protocol: a block with {@code reason} where
     * {@code nativeEvent} can be blocked, else no opinion; {@code reason} on stderr either way, so the
     * refusal is never a quiet allow. Nothing is evaluated and nothing is recorded in a project.
     */
    public static HostResponse refused(String host, String nativeEvent, String reason) {
        HostAdapter adapter = HostAdapters.forId(host);
        String note = "warden: refused: " + reason;
        if (adapter == null) {
            return new HostResponse(2, "", note);
        }
        if (nativeEvent != null && adapter.capability(nativeEvent).canBlock()) {
            return adapter.render(nativeEvent, Verdict.block("Warden refused this event: " + reason)).withStderr(note);
        }
        return noOpinion(adapter, nativeEvent, note);
    }

    /**
     * A host Warden cannot answer in its own protocol (a mistyped name, or a host with no adapter
     * yet): {@link FailMode#CLOSED} refuses with exit 2, the generic hook refusal; otherwise allows. Both say why.
     */
    private static HostResponse noAdapter(String host, FailMode mode, DecisionDraft draft) {
        String unknown = Hosts.unknown(host);
        String why = unknown != null ? unknown : "no adapter for host '" + host + "' yet.";
        if (mode == FailMode.CLOSED) {
            draft.answered(Verdict.Kind.BLOCK);
            return new HostResponse(2, "", "warden: " + why + " Refused (WARDEN_FAIL_MODE=closed).");
        }
        draft.answered(Verdict.Kind.ALLOW);
        return new HostResponse(0, "", "warden: " + why + " Allowing (WARDEN_FAIL_MODE=closed would refuse).");
    }

    /**
     * An unexpected failure of Warden itself, answered per the request's {@link FailMode} where its
     * route names a host with an adapter, else failing open; {@code draft} ends as an internal error.
     */
    private static HostResponse internalError(DispatchRequest request, Throwable e, DecisionDraft draft) {
        String note = "warden: internal error: " + e;
        DispatchRequest.Route route = request.route();
        HostAdapter adapter = HostAdapters.forId(String.valueOf(route.host()));
        String nativeEvent = route.nativeEvent();
        FailMode mode = route.usage() == null ? request.failMode() : FailMode.OPEN;
        boolean blocks = adapter != null && mode == FailMode.CLOSED && nativeEvent != null
                && adapter.capability(nativeEvent).canBlock();
        draft.ended("internal_error", request.failMode().wire(), blocks ? Verdict.Kind.BLOCK : Verdict.Kind.ALLOW);
        return adapter == null ? new HostResponse(0, "", note + "; failing open") : failRuntime(adapter, nativeEvent, mode, note);
    }

    /** Warden cannot evaluate the event: {@link FailMode#CLOSED} refuses it where the host lets us, else no opinion. */
    private static HostResponse failRuntime(HostAdapter adapter, String nativeEvent, FailMode mode, String note) {
        if (mode == FailMode.CLOSED && nativeEvent != null && adapter.capability(nativeEvent).canBlock()) {
            return adapter.render(nativeEvent, Verdict.block("Warden cannot evaluate policy (WARDEN_FAIL_MODE=closed)"))
                    .withStderr(note);
        }
        return noOpinion(adapter, nativeEvent, note + "; failing open");
    }

    /**
     * "No opinion" in the host's protocol, with a note on stderr: nothing on most events, the JSON
     * a host requires on others ({@code {}} on Codex's Stop). Without a native event there is no
     * protocol to follow, and the answer is the note alone.
     */
    private static HostResponse noOpinion(HostAdapter adapter, String nativeEvent, String note) {
        HostResponse silent = nativeEvent == null ? HostResponse.SILENT : adapter.render(nativeEvent, Verdict.NO_OPINION);
        return silent.withStderr(note);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> parsePayload(byte[] raw) {
        String text = new String(raw, StandardCharsets.UTF_8);
        if (text.isBlank()) {
            throw new JsonException("json_empty", "stdin is empty", 0);
        }
        Object value = Json.parse(text, JsonLimits.LENIENT);
        return value instanceof Map ? (Map<String, Object>) value : null;
    }

    /** Reads all of stdin, or returns {@code null} once more than {@code max} bytes arrive. */
    static byte[] readCapped(InputStream in, int max) throws IOException {
        byte[] buf = new byte[Math.min(max + 1, 64 * 1024)];
        int len = 0;
        while (true) {
            if (len == buf.length) {
                if (buf.length > max) {
                    return null;
                }
                buf = Arrays.copyOf(buf, (int) Math.min((long) max + 1, buf.length * 2L));
            }
            int n = in.read(buf, len, buf.length - len);
            if (n < 0) {
                return Arrays.copyOf(buf, len);
            }
            len += n;
            if (len > max) {
                return null;
            }
        }
    }
}
