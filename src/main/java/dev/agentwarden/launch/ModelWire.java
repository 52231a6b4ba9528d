package dev.agentwarden.launch;

import dev.agentwarden.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A model API a host speaks through the proxy, told by the request path, and where each one
 * carries system text: the only place a host puts a selected custom agent's instructions.
 *
 * <ul>
 *   <li>OpenAI Chat Completions ({@code …/chat/completions}): {@code messages[]} with role
 *   {@code system} or {@code developer}, content a string or {@code text} parts;</li>
 *   <li>OpenAI Responses ({@code …/responses}): {@code instructions}, and {@code input[]} items with
 *   role {@code system} or {@code developer};</li>
 *   <li>Anthropic Messages ({@code …/messages}): {@code system}, a string or {@code text} blocks;</li>
 *   <li>Gemini ({@code …:generateContent}, {@code …:streamGenerateContent}):
 *   {@code systemInstruction.parts[].text}.</li>
 * </ul>
 */
enum ModelWire {
    OPENAI_CHAT("openai-chat"),
    OPENAI_RESPONSES("openai-responses"),
    ANTHROPIC_MESSAGES("anthropic-messages"),
    GEMINI("gemini-generate-content");

    private final String label;

    ModelWire(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The wire a POST to {@code path} (query removed) generates on, or {@code null} when it is no model call. */
    public static ModelWire ofPath(String path) {
        if (path.endsWith("/chat/completions")) {
            return OPENAI_CHAT;
        }
        if (path.endsWith("/responses")) {
            return OPENAI_RESPONSES;
        }
        if (path.endsWith("/messages")) {
            return ANTHROPIC_MESSAGES;
        }
        if (path.endsWith(":generateContent") || path.endsWith(":streamGenerateContent")) {
            return GEMINI;
        }
        return null;
    }

    /** One system text of a request, with where it stands (for the evidence). */
    public record SystemText(String where, String text) {
    }

    /** The request's system texts, in request order. */
    public List<SystemText> systemTexts(Map<String, Object> request) {
        List<SystemText> out = new ArrayList<>();
        switch (this) {
            case OPENAI_CHAT:
                roleTexts(request.get("messages"), "messages", "content", out);
                break;
            case OPENAI_RESPONSES:
                if (request.get("instructions") instanceof String s) {
                    out.add(new SystemText("instructions", s));
                }
                roleTexts(request.get("input"), "input", "content", out);
                break;
            case ANTHROPIC_MESSAGES:
                texts(request.get("system"), "system", out);
                break;
            case GEMINI:
            default: {
                Object si = request.containsKey("systemInstruction") ? request.get("systemInstruction")
                        : request.get("system_instruction");
                if (si instanceof Map<?, ?> m) {
                    texts(m.get("parts"), "systemInstruction.parts", out);
                } else {
                    texts(si, "systemInstruction", out);
                }
                break;
            }
        }
        return out;
    }

    /**
     * The error body a host of this wire shows its user, naming the outcome ({@code code}).
     * Status 403 is one every provider SDK reports at once instead of retrying.
     */
    public byte[] errorBody(String code, String message) {
        Map<String, Object> body = Json.object();
        Map<String, Object> error = Json.object();
        switch (this) {
            case ANTHROPIC_MESSAGES:
                body.put("type", "error");
                error.put("type", "permission_error");
                error.put("message", message);
                body.put("error", error);
                break;
            case GEMINI:
                error.put("code", 403L);
                error.put("message", message);
                error.put("status", "PERMISSION_DENIED");
                body.put("error", error);
                break;
            case OPENAI_CHAT:
            case OPENAI_RESPONSES:
            default:
                error.put("message", message);
                error.put("type", "warden_integrity_halt");
                error.put("code", code);
                body.put("error", error);
                break;
        }
        return Json.write(body).getBytes(StandardCharsets.UTF_8);
    }

    private static void roleTexts(Object items, String field, String contentKey, List<SystemText> out) {
        if (!(items instanceof List<?> list)) {
            return;
        }
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i) instanceof Map<?, ?> m) {
                Object role = m.get("role");
                if ("system".equals(role) || "developer".equals(role)) {
                    texts(m.get(contentKey), field + "[" + i + "]." + contentKey, out);
                }
            }
        }
    }

    /** A string, or a list of parts each with a string {@code text}. */
    private static void texts(Object value, String where, List<SystemText> out) {
        if (value instanceof String s) {
            out.add(new SystemText(where, s));
            return;
        }
        if (value instanceof List<?> parts) {
            for (int i = 0; i < parts.size(); i++) {
                if (parts.get(i) instanceof Map<?, ?> p && p.get("text") instanceof String s) {
                    out.add(new SystemText(where + "[" + i + "].text", s));
                }
            }
        }
    }
}
