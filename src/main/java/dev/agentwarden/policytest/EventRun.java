package dev.agentwarden.policytest;

import dev.agentwarden.decision.ChainResult;
import dev.agentwarden.decision.DecisionDraft;
import dev.agentwarden.dispatch.Caller;
import dev.agentwarden.dispatch.DispatchRequest;
import dev.agentwarden.dispatch.DispatchRuntime;
import dev.agentwarden.dispatch.Dispatcher;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.verdict.Verdict;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * One event through the real dispatch path ({@link DispatchRuntime#respond}, the entry every transport
 * uses) for a policy test or a replay, writing no state: replay mode ({@code WARDEN_REPLAY=1},
 * which the ledger, spawn guard, integrity gate and decision log honour, and which concern
 * processes see) and the decision log off. The project root is given explicitly, so the manifest
 * in force, its trust and its scripts are those a live event in that project gets, whatever
 * {@code cwd} the payload names.
 */
public final class EventRun {
    /** Variables of the calling shell a run must not inherit: they would change the answer or record it. */
    private static final String[] CLEARED = {
        "WARDEN_SESSION_ROLE", "AGENT_CONFIG_SESSION_ROLE", "WARDEN_FAIL_MODE", "WARDEN_CAPTURE_DIR",
        "WARDEN_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "CURSOR_PROJECT_DIR", "GEMINI_PROJECT_DIR",
    };

    private EventRun() {
    }

    /**
     * What dispatch decided.
     *
     * @param verdict  {@code allow|warn|ask|block|halt}, as the decision log records it
     * @param reason   the verdict's reason (block, halt), else the context it adds, else dispatch's stderr note
     * @param response what the host got
     * @param manifest the source of the manifest in force, or {@code null} when none loaded
     */
    public record Outcome(String verdict, String reason, HostResponse response, String manifest) {
    }

    /**
     * @param manifestFile {@code --manifest} for dispatch, or {@code null} for the manifest in force in {@code root}
     * @param role         the session role, or {@code null} for the default
     * @param failMode     {@code open} or {@code closed}, or {@code null} for the default
     */
    public static Outcome run(Path root, String host, String nativeEvent, byte[] payload, String manifestFile,
                              String role, String failMode, Map<String, String> baseEnv, Clock clock) {
        Map<String, String> env = new HashMap<>(baseEnv);
        for (String name : CLEARED) {
            env.remove(name);
        }
        env.put("WARDEN_REPLAY", "1");
        env.put("WARDEN_DECISION_LOG", "off");
        if (role != null) {
            env.put("WARDEN_SESSION_ROLE", role);
        }
        if (failMode != null) {
            env.put("WARDEN_FAIL_MODE", failMode);
        }
        DispatchRequest request = DispatchRequest.of(new DispatchRequest.Route(host, null, nativeEvent,
                manifestFile, root.toString()),
                payload, Caller.forwarded(env, root), DispatchRequest.Transport.OWN_JVM);
        DecisionDraft draft = new DecisionDraft(request.transport().wire(), clock.millis(), System.nanoTime());
        HostResponse response = DispatchRuntime.oneShot(clock).respond(request, draft);
        String verdict = draft.verdict();
        ChainResult result = draft.result();
        String reason = null;
        if (result != null) {
            Verdict v = result.verdict();
            reason = v.reason() != null ? v.reason() : v.context();
        }
        if (reason == null && !response.stderr().isEmpty()) {
            reason = response.stderr();
        }
        return new Outcome(verdict, reason, response, draft.manifest() == null ? null : draft.manifest().source());
    }
}
