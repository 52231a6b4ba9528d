package dev.agentwarden.testing;

import dev.agentwarden.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** Host payloads: the captured ones under {@code src/test/resources/hosts/}, and small hand-built ones. */
public final class HostPayloads {
    private HostPayloads() {
    }

    /** The bytes of {@code hosts/<path>}, e.g. {@code claude-code-2.1.197/agent-04-SubagentStart.json}. */
    public static String captured(String path) {
        try (InputStream in = HostPayloads.class.getResourceAsStream("/hosts/" + path)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource hosts/" + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A captured payload with its {@code cwd} pointed at a test project. */
    public static String captured(String path, String cwd) {
        Map<String, Object> o = Json.parseObject(captured(path));
        o.put("cwd", cwd);
        return Json.write(o);
    }

    /** A Claude-shaped payload: {@code hook_event_name} plus the given key/value pairs. */
    public static Map<String, Object> claude(String nativeEvent, Object... keyValues) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("session_id", "s-1");
        o.put("hook_event_name", nativeEvent);
        for (int i = 0; i < keyValues.length; i += 2) {
            o.put((String) keyValues[i], keyValues[i + 1]);
        }
        return o;
    }
}
