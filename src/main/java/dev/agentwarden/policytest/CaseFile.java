package dev.agentwarden.policytest;

import dev.agentwarden.host.HostAdapters;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.host.PayloadTemplate;
import dev.agentwarden.host.PayloadTemplates;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import dev.agentwarden.text.NearMiss;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * Reads a policy test file: YAML with a {@code cases:} list, each case an event and the answer it
 * must get ({@link PolicyCase}). A {@code payload_file} is relative to the test file. Fields the
 * payload omits are filled in as the host sends them ({@link PayloadTemplate}); a payload file that
 * needs no filling (a captured payload) is sent byte for byte, and one that is not a JSON object is
 * sent as it is, to test what dispatch does with bad input.
 */
public final class CaseFile {
    /** Largest test file read. */
    static final int MAX_FILE_BYTES = 1024 * 1024;
    /** Largest payload file read: dispatch's own default payload cap. */
    static final int MAX_PAYLOAD_BYTES = 8 * 1024 * 1024;
    /** Most cases in one file. */
    static final int MAX_CASES = 10_000;
    static final Set<String> VERDICTS = Set.of("allow", "warn", "ask", "block", "halt");
    private static final List<String> CASE_KEYS = List.of("name", "host", "event", "payload", "payload_file", "env",
            "verdict", "reason_contains", "output");
    private static final List<String> ENV_KEYS = List.of("role", "fail_mode");

    private CaseFile() {
    }

    /** A test file that cannot be used as written; the message names the file and the case. */
    public static final class Invalid extends Exception {
        public Invalid(String message) {
            super(message);
        }
    }

    /**
     * The cases of {@code file}, their payloads filled in for a session in {@code cwd}.
     *
     * @throws Invalid when the file cannot be read or a case is malformed
     */
    public static List<PolicyCase> read(Path file, String cwd) throws Invalid {
        String text;
        try {
            text = new String(StateFiles.readAll(file, MAX_FILE_BYTES, true), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new Invalid(file + ": cannot be read: " + e.getMessage());
        }
        Object root;
        try {
            root = new Load(LoadSettings.builder().setLabel(file.toString()).setAllowDuplicateKeys(false)
                    .setMaxAliasesForCollections(50).setCodePointLimit(MAX_FILE_BYTES).build()).loadFromString(text);
        } catch (YamlEngineException e) {
            throw new Invalid(file + ": not valid YAML: " + e.getMessage());
        }
        if (!(root instanceof Map<?, ?> top) || !(top.get("cases") instanceof List<?> list)) {
            throw new Invalid(file + ": a test file is a map with a `cases:` list");
        }
        for (Object key : top.keySet()) {
            if (!"cases".equals(key)) {
                throw new Invalid(file + ": unknown top-level key `" + key + "` (only `cases:`)");
            }
        }
        if (list.size() > MAX_CASES) {
            throw new Invalid(file + ": " + list.size() + " cases, more than " + MAX_CASES + "; split the file");
        }
        List<PolicyCase> cases = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            cases.add(parse(file, i + 1, list.get(i), cwd));
        }
        return cases;
    }

    private static PolicyCase parse(Path file, int index, Object item, String cwd) throws Invalid {
        String where = file + ": case " + index;
        if (!(item instanceof Map<?, ?> c)) {
            throw new Invalid(where + ": a case is a map (name, host, event, payload, verdict, ...)");
        }
        String name = string(c, "name", where);
        if (name != null) {
            where = file + ": case " + index + " (" + name + ")";
        }
        for (Object key : c.keySet()) {
            if (!CASE_KEYS.contains(String.valueOf(key))) {
                throw new Invalid(where + ": unknown key `" + key + "`" + NearMiss.hint(String.valueOf(key), CASE_KEYS));
            }
        }
        String host = required(c, "host", where);
        String event = required(c, "event", where);
        String verdict = required(c, "verdict", where);
        if (name == null) {
            name = host + " " + event + " → " + verdict;
        }
        if (!VERDICTS.contains(verdict)) {
            throw new Invalid(where + ": verdict `" + verdict + "` is not one of allow, warn, ask, block, halt");
        }
        if (HostAdapters.forId(host) == null) {
            String unknown = Hosts.unknown(host);
            throw new Invalid(where + ": " + (unknown != null ? unknown : "Warden has no adapter for host '" + host + "' yet"));
        }
        String role = null;
        String failMode = null;
        Object env = c.get("env");
        if (env != null) {
            if (!(env instanceof Map<?, ?> e)) {
                throw new Invalid(where + ": env is a map (role, fail_mode)");
            }
            for (Object key : e.keySet()) {
                if (!ENV_KEYS.contains(String.valueOf(key))) {
                    throw new Invalid(where + ": unknown env key `" + key + "`" + NearMiss.hint(String.valueOf(key), ENV_KEYS));
                }
            }
            role = string(e, "role", where);
            failMode = string(e, "fail_mode", where);
            if (failMode != null && !failMode.equals("open") && !failMode.equals("closed")) {
                throw new Invalid(where + ": env.fail_mode is open or closed, not `" + failMode + "`");
            }
        }
        byte[] payload = payload(file, c, host, event, cwd, where);
        return new PolicyCase(file, index, name, host, event, payload, role, failMode, verdict,
                string(c, "reason_contains", where), string(c, "output", where));
    }

    @SuppressWarnings("unchecked")
    private static byte[] payload(Path file, Map<?, ?> c, String host, String event, String cwd, String where)
            throws Invalid {
        Object inline = c.get("payload");
        Object fileName = c.get("payload_file");
        if (inline != null && fileName != null) {
            throw new Invalid(where + ": give payload or payload_file, not both");
        }
        PayloadTemplate template = PayloadTemplates.forHost(host);
        if (fileName != null) {
            if (!(fileName instanceof String name)) {
                throw new Invalid(where + ": payload_file is a path (relative to the test file)");
            }
            Path source = file.toAbsolutePath().getParent().resolve(name);
            byte[] bytes;
            try {
                bytes = StateFiles.readAll(source, MAX_PAYLOAD_BYTES, true);
            } catch (IOException e) {
                throw new Invalid(where + ": payload_file " + source + " cannot be read: " + e.getMessage());
            }
            Object parsed;
            try {
                parsed = Json.parse(new String(bytes, StandardCharsets.UTF_8), JsonLimits.LENIENT);
            } catch (JsonException e) {
                return bytes;
            }
            if (!(parsed instanceof Map) || template == null) {
                return bytes;
            }
            Map<String, Object> given = (Map<String, Object>) parsed;
            Map<String, Object> filled = template.fill(event, given, cwd);
            return filled.size() == given.size() ? bytes : Json.write(filled).getBytes(StandardCharsets.UTF_8);
        }
        Map<String, Object> given = new LinkedHashMap<>();
        if (inline != null) {
            if (!(inline instanceof Map<?, ?> m)) {
                throw new Invalid(where + ": payload is a map (the event's JSON fields)");
            }
            for (Map.Entry<?, ?> e : m.entrySet()) {
                given.put(String.valueOf(e.getKey()), e.getValue());
            }
        }
        Map<String, Object> filled = template == null ? given : template.fill(event, given, cwd);
        return Json.write(filled).getBytes(StandardCharsets.UTF_8);
    }

    private static String required(Map<?, ?> c, String key, String where) throws Invalid {
        String v = string(c, key, where);
        if (v == null || v.isEmpty()) {
            throw new Invalid(where + ": `" + key + "` is required");
        }
        return v;
    }

    private static String string(Map<?, ?> c, String key, String where) throws Invalid {
        Object v = c.get(key);
        if (v == null) {
            return null;
        }
        if (v instanceof Map || v instanceof List) {
            throw new Invalid(where + ": `" + key + "` is text, not a " + (v instanceof Map ? "map" : "list"));
        }
        return String.valueOf(v);
    }
}
