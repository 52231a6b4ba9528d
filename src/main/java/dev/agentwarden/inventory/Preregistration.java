package dev.agentwarden.inventory;

import dev.agentwarden.io.StateFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * What a measurement run declares about its tool inventory before execution:
 *
 * <pre>
 * baseline: &lt;inventory_sha256&gt;
 * variants:
 *   - label: with-github
 *     inventory: &lt;inventory_sha256&gt;
 * required_tools:
 *   - claude/everything/echo        # host/server/tool
 * </pre>
 *
 * @param variants label to inventory hash
 */
public record Preregistration(String baseline, Map<String, String> variants, List<String> requiredTools) {
    static final long MAX_FILE_BYTES = 1024 * 1024;

    public static Preregistration read(Path file) throws IOException {
        return parse(new String(StateFiles.readAll(file, MAX_FILE_BYTES, true), StandardCharsets.UTF_8), file.toString());
    }

    /** @throws IllegalArgumentException naming the field that is wrong */
    static Preregistration parse(String yaml, String where) {
        Object doc;
        try {
            LoadSettings settings = LoadSettings.builder().setAllowDuplicateKeys(false).setMaxAliasesForCollections(10)
                    .setCodePointLimit((int) MAX_FILE_BYTES).build();
            doc = new Load(settings).loadFromString(yaml);
        } catch (YamlEngineException e) {
            throw new IllegalArgumentException(where + ": not YAML: " + e.getMessage());
        }
        if (!(doc instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException(where + ": expected a mapping with baseline, variants, required_tools");
        }
        for (Object k : m.keySet()) {
            if (!List.of("baseline", "variants", "required_tools").contains(k)) {
                throw new IllegalArgumentException(where + ": unknown field '" + k + "'");
            }
        }
        String baseline = hash(m.get("baseline"), where + ": baseline");
        Map<String, String> variants = new LinkedHashMap<>();
        if (m.get("variants") != null) {
            if (!(m.get("variants") instanceof List<?> list)) {
                throw new IllegalArgumentException(where + ": variants must be a list");
            }
            for (Object o : list) {
                if (!(o instanceof Map<?, ?> v) || !(v.get("label") instanceof String label) || label.isBlank()) {
                    throw new IllegalArgumentException(where + ": each variant needs a label and an inventory hash");
                }
                if (variants.put(label, hash(v.get("inventory"), where + ": variant " + label)) != null) {
                    throw new IllegalArgumentException(where + ": variant label '" + label + "' is declared twice");
                }
            }
        }
        List<String> required = new ArrayList<>();
        if (m.get("required_tools") != null) {
            if (!(m.get("required_tools") instanceof List<?> list)) {
                throw new IllegalArgumentException(where + ": required_tools must be a list");
            }
            for (Object o : list) {
                if (!(o instanceof String s) || s.split("/", -1).length != 3) {
                    throw new IllegalArgumentException(where + ": required tool '" + o + "' is not host/server/tool");
                }
                required.add(s);
            }
        }
        return new Preregistration(baseline, variants, required);
    }

    private static String hash(Object value, String what) {
        if (!(value instanceof String s) || !s.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException(what + " must be a lowercase hex SHA-256 (an inventory_sha256)");
        }
        return s;
    }
}
