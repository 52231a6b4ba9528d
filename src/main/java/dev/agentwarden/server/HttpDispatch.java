package dev.agentwarden.server;

import dev.agentwarden.dispatch.Caller;
import dev.agentwarden.dispatch.DispatchMain;
import dev.agentwarden.dispatch.DispatchRequest;
import dev.agentwarden.dispatch.DispatchRuntime;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonLimits;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Events posted over HTTP: {@code warden serve}'s {@code POST /dispatch/<host>[/<NativeEvent>]},
 * judged under the server's own environment, manifest and project directory, and a resident's host
 * HTTP hooks, {@code POST /project/<id>/dispatch/<host>[/<NativeEvent>]}, judged under the project
 * the URL is bound to ({@link HookCaller}). Either becomes one {@link DispatchRequest} (transport
 * {@code serve}) and its answer a {@link Reply#ofDispatch}.
 */
final class HttpDispatch {
    static final String DISPATCH_ENDPOINT = "the endpoint is POST /dispatch/<host>/<NativeEvent>";
    static final String HOOK_ENDPOINT = "the endpoint is POST /project/<id>/dispatch/<host>/<NativeEvent>"
            + " (the URL warden install --transport http writes)";
    /** Longest segment of a {@code /dispatch} route (a host id, a native event name). */
    private static final int SEGMENT_CHARS = 64;

    private final DispatchRuntime runtime;
    /** The caller of every {@code serve} dispatch: the server's own process and environment. */
    private final Caller caller;
    /** {@code serve}'s {@code --manifest} and {@code --project-dir}, or {@code null}. */
    private final String manifest;
    private final String projectDir;
    /** The resident's own environment, which a bound hook's caller is built from ({@link HookCaller#bind}). */
    private final Map<String, String> env;
    /** Where the projects bound to hook URLs are registered, or {@code null}. */
    private final Path hookProjectsDir;

    HttpDispatch(DispatchRuntime runtime, Map<String, String> env, String manifest, String projectDir,
                 Path hookProjectsDir) {
        this.runtime = runtime;
        this.env = env;
        this.caller = Caller.thisProcess(env);
        this.manifest = manifest;
        this.projectDir = projectDir;
        this.hookProjectsDir = hookProjectsDir;
    }

    /** {@code serve}'s answer to a complete, authorized {@code /dispatch} request. */
    Reply serve(Front.Request request) {
        List<String> route = serveRoute(request.head().path());
        DispatchRequest.Route dispatch = new DispatchRequest.Route(route.get(0), null,
                route.size() == 2 ? route.get(1) : null, manifest, projectDir);
        return Reply.ofDispatch(runtime.respond(DispatchRequest.of(dispatch, request.body(), caller,
                DispatchRequest.Transport.SERVE)));
    }

    /**
     * A host HTTP hook's event, judged only under what it carries ({@link HookCaller}): the project
     * its URL is bound to and its payload's {@code cwd}, never the resident's own environment. An
     * event it cannot bind (an unbound URL, an unknown project, a cwd outside the project) is
     * refused in the host's protocol, and the refusal goes to the resident's log too.
     */
    Reply hook(Front.Request request) {
        String path = request.head().path();
        HookRoute route = hookRoute(path);
        String refusal;
        HostResponse response;
        if (route.projectId() == null) {
            refusal = "this HTTP hook is bound to no project (its URL is /dispatch/..., written by an older Warden);"
                    + " re-run warden install --transport http in the project";
        } else {
            HookCaller.Bound bound = hookProjectsDir == null
                    ? HookCaller.Bound.refused("this resident has no registry of projects bound to HTTP hooks")
                    : HookCaller.bind(hookProjectsDir, route.projectId(), cwdOf(request.body()), env);
            refusal = bound.refusal();
            if (refusal == null) {
                DispatchRequest.Route dispatch = new DispatchRequest.Route(route.host(), null, route.nativeEvent(), null,
                        bound.root().toString());
                response = runtime.respond(DispatchRequest.of(dispatch, request.body(), bound.caller(),
                        DispatchRequest.Transport.SERVE));
                return Reply.ofDispatch(response);
            }
        }
        System.err.println("warden resident: refused an HTTP hook event (" + path + "): " + refusal);
        response = DispatchMain.refused(route.host(), route.nativeEvent(), refusal);
        return Reply.ofDispatch(response);
    }

    /** The payload's {@code cwd}, or {@code null} when the body is not a JSON object naming one. */
    static String cwdOf(byte[] body) {
        try {
            Object payload = Json.parse(new String(body, StandardCharsets.UTF_8), JsonLimits.LENIENT);
            return payload instanceof Map<?, ?> m && m.get("cwd") instanceof String cwd ? cwd : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** A host HTTP hook's route: the bound project's id ({@code null} on the unbound {@code /dispatch/...}), host, event. */
    record HookRoute(String projectId, String host, String nativeEvent) {
    }

    /** {@code /project/<id>/dispatch/<host>[/<NativeEvent>]}, or the unbound {@code /dispatch/<host>[/<NativeEvent>]}. */
    static HookRoute hookRoute(String path) {
        String prefix = "/project/";
        String id = null;
        String rest = path;
        if (path != null && path.startsWith(prefix)) {
            int slash = path.indexOf('/', prefix.length());
            id = slash < 0 ? "" : path.substring(prefix.length(), slash);
            if (!dev.agentwarden.io.HookProjects.isId(id)) {
                throw new Reply.Refusal(404, "not_found", HOOK_ENDPOINT);
            }
            rest = path.substring(slash);
        }
        List<String> route;
        try {
            route = serveRoute(rest);
        } catch (Reply.Refusal r) {
            throw new Reply.Refusal(404, "not_found", HOOK_ENDPOINT);
        }
        return new HookRoute(id, route.get(0), route.size() == 2 ? route.get(1) : null);
    }

    /** {@code [host]} or {@code [host, NativeEvent]} from {@code /dispatch/<host>[/<NativeEvent>]}. */
    static List<String> serveRoute(String path) {
        String prefix = "/dispatch/";
        if (path == null || !path.startsWith(prefix)) {
            throw new Reply.Refusal(404, "not_found", DISPATCH_ENDPOINT);
        }
        int from = prefix.length();
        int slash = path.indexOf('/', from);
        int hostEnd = slash < 0 ? path.length() : slash;
        if (!segment(path, from, hostEnd) || slash >= 0 && !segment(path, slash + 1, path.length())) {
            throw new Reply.Refusal(404, "not_found", DISPATCH_ENDPOINT);
        }
        return slash < 0 ? List.of(path.substring(from))
                : List.of(path.substring(from, slash), path.substring(slash + 1));
    }

    /** Whether {@code path[from, to)} is a route segment: 1 to {@link #SEGMENT_CHARS} of {@code A-Za-z0-9_.-}. */
    private static boolean segment(String path, int from, int to) {
        if (to <= from || to - from > SEGMENT_CHARS) {
            return false;
        }
        for (int i = from; i < to; i++) {
            char c = path.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-')) {
                return false;
            }
        }
        return true;
    }
}
