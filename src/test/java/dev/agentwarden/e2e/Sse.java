package dev.agentwarden.e2e;

import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonLimits;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Server-sent events: writing a stream, and reading one back (for tests of the servers). */
final class Sse {
    private final StringBuilder out = new StringBuilder(1024);

    /** Appends one event with a JSON data line. */
    Sse event(String name, Map<String, Object> data) {
        out.append("event: ").append(name).append('\n');
        out.append("data: ").append(Json.write(data)).append("\n\n");
        return this;
    }

    @Override
    public String toString() {
        return out.toString();
    }

    /** One received event. */
    record Event(String name, Map<String, Object> data) {
    }

    /** Parses a complete stream; a data line that is not a JSON object is an error. */
    @SuppressWarnings("unchecked")
    static List<Event> parse(String stream) {
        List<Event> events = new ArrayList<>();
        String name = null;
        StringBuilder data = new StringBuilder();
        for (String line : (stream + "\n").split("\n", -1)) {
            if (line.isEmpty()) {
                if (name != null || data.length() > 0) {
                    Object value = Json.parse(data.toString(), JsonLimits.LENIENT);
                    if (!(value instanceof Map)) {
                        throw new IllegalArgumentException("SSE data is not a JSON object: " + data);
                    }
                    events.add(new Event(name, (Map<String, Object>) value));
                }
                name = null;
                data.setLength(0);
            } else if (line.startsWith("event: ")) {
                name = line.substring("event: ".length());
            } else if (line.startsWith("data: ")) {
                data.append(line, "data: ".length(), line.length());
            }
        }
        return events;
    }
}
