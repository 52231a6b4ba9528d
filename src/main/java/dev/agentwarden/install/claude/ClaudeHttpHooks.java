package dev.agentwarden.install.claude;

import dev.agentwarden.host.claude.ClaudeHosts;
import dev.agentwarden.json.JsonSpans;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Claude Code {@code type: "http"} hook entries that send an event to the resident's hook port
 * ({@code POST http://127.0.0.1:PORT/project/<id>/dispatch/<host>/<Event>}, {@code <id>} naming the
 * project the hook is bound to: the resident judges the event under that project only), with the token taken from the
 * host's environment: {@code headers: {"Authorization": "Bearer $WARDEN_HOOK_TOKEN"}} and
 * {@code allowedEnvVars: ["WARDEN_HOOK_TOKEN"]}, so the settings file holds no secret.
 *
 * <p>An HTTP hook whose server is down fails open on Claude Code (a non-blocking error), so only
 * events that may fail open go over HTTP ({@link #plan}): SessionStart stays a command hook (it
 * starts the resident when none runs), and so does every event whose chain holds a
 * {@code fail_closed} concern.
 */
public final class ClaudeHttpHooks {
    public static final String TOKEN_VARIABLE = dev.agentwarden.io.HookPortFile.TOKEN_VARIABLE;
    private static final String URL_PREFIX = "http://127.0.0.1:";
    private static final String PATH = "/dispatch/";
    private static final String PROJECT = "/project/";
    /** Hex digits of a project id in a hook URL. */
    private static final int ID_CHARS = 32;

    private ClaudeHttpHooks() {
    }

    /** How one event reaches Warden, and why: {@code "command"} or {@code "http"}. */
    public record Transport(String nativeEvent, String kind, String reason) {
    }

    /** Whether the host reads these hooks: Claude Code and Cowork (Claude's settings), no other. */
    public static boolean servesHost(String host) {
        return ClaudeHosts.CLAUDE.id().equals(host) || ClaudeHosts.COWORK.id().equals(host);
    }

    /**
     * Which transport each event gets under {@code --transport http}: http unless the event is
     * SessionStart or one of {@code failClosedEvents}. The data {@code doctor} reports.
     */
    public static List<Transport> plan(List<String> nativeEvents, Set<String> failClosedEvents) {
        List<Transport> out = new ArrayList<>();
        for (String event : nativeEvents) {
            if (event.equals("SessionStart")) {
                out.add(new Transport(event, "command", "starts the resident that serves the HTTP hooks"));
            } else if (failClosedEvents.contains(event)) {
                out.add(new Transport(event, "command", "its chain has a fail_closed concern, and an HTTP hook"
                        + " whose server is down fails open"));
            } else {
                out.add(new Transport(event, "http", "the resident's hook port"));
            }
        }
        return out;
    }

    /** The handler Warden writes for {@code nativeEvent} of {@code host} on {@code port}, bound to project {@code projectId}. */
    static Map<String, Object> handler(int port, String projectId, String host, String nativeEvent) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("type", "http");
        h.put("url", url(port, projectId, host, nativeEvent));
        h.put("headers", Map.of("Authorization", "Bearer $" + TOKEN_VARIABLE));
        h.put("allowedEnvVars", List.of(TOKEN_VARIABLE));
        h.put("timeout", ClaudeSettings.HOOK_TIMEOUT_SECONDS);
        return h;
    }

    static String url(int port, String projectId, String host, String nativeEvent) {
        if (projectId == null || projectId.length() != ID_CHARS) {
            throw new IllegalArgumentException("an HTTP hook needs the id of the project it is bound to");
        }
        return URL_PREFIX + port + PROJECT + projectId + PATH + host + "/" + nativeEvent;
    }

    /**
     * Exactly a handler {@link #handler} writes, for one of {@code hosts}, listed under
     * {@code nativeEvent}: these five keys each once, a loopback URL of any port (bound to any
     * project, or to none as older Warden wrote it, so that install replaces and uninstall removes
     * those too), the header and the one allowed variable.
     */
    static boolean isWardens(JsonSpans.Value handler, String nativeEvent, Set<String> hosts, String timeoutText) {
        if (handler.kind() != JsonSpans.Kind.OBJECT || handler.members().size() != 5) {
            return false;
        }
        List<JsonSpans.Member> type = handler.named("type");
        List<JsonSpans.Member> url = handler.named("url");
        List<JsonSpans.Member> headers = handler.named("headers");
        List<JsonSpans.Member> allowed = handler.named("allowedEnvVars");
        List<JsonSpans.Member> timeout = handler.named("timeout");
        if (type.size() != 1 || !type.get(0).value().isString("http") || url.size() != 1 || headers.size() != 1
                || allowed.size() != 1 || timeout.size() != 1 || !Long.toString(ClaudeSettings.HOOK_TIMEOUT_SECONDS).equals(timeoutText)
                || url.get(0).value().kind() != JsonSpans.Kind.STRING) {
            return false;
        }
        JsonSpans.Value h = headers.get(0).value();
        JsonSpans.Value a = allowed.get(0).value();
        if (h.kind() != JsonSpans.Kind.OBJECT || h.members().size() != 1 || h.named("Authorization").size() != 1
                || !h.named("Authorization").get(0).value().isString("Bearer $" + TOKEN_VARIABLE)
                || a.kind() != JsonSpans.Kind.ARRAY || a.elements().size() != 1 || !a.elements().get(0).isString(TOKEN_VARIABLE)) {
            return false;
        }
        String u = url.get(0).value().text();
        if (!u.startsWith(URL_PREFIX)) {
            return false;
        }
        int slash = u.indexOf('/', URL_PREFIX.length());
        String port = slash < 0 ? "" : u.substring(URL_PREFIX.length(), slash);
        if (port.isEmpty() || port.length() > 5 || !port.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return false;
        }
        String route = u.substring(slash);
        if (route.startsWith(PROJECT) && route.length() > PROJECT.length() + ID_CHARS
                && route.charAt(PROJECT.length() + ID_CHARS) == '/') {
            String id = route.substring(PROJECT.length(), PROJECT.length() + ID_CHARS);
            if (!id.chars().allMatch(c -> c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
            route = route.substring(PROJECT.length() + ID_CHARS);
        }
        for (String host : hosts) {
            if (route.equals(PATH + host + "/" + nativeEvent)) {
                return true;
            }
        }
        return false;
    }
}
