package dev.agentwarden.toml;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The part of TOML that Codex's {@code [mcp_servers.*]} tables use: {@code [a.b]} headers (bare or
 * quoted keys), {@code key = value} with basic/literal strings, integers, booleans, one-line arrays of
 * those and one-line inline tables, and {@code #} comments. Anything else in a line that matters is
 * skipped; a malformed header fails the file.
 */
public final class MiniToml {
    private final String s;
    private int i;

    private MiniToml(String s) {
        this.s = s;
    }

    public static Map<String, Object> parse(String text) {
        Map<String, Object> root = new LinkedHashMap<>();
        Map<String, Object> table = root;
        int lineNo = 0;
        for (String raw : text.split("\n", -1)) {
            lineNo++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("[[")) {
                table = new LinkedHashMap<>();
                continue;
            }
            if (line.startsWith("[")) {
                MiniToml p = new MiniToml(line);
                p.i = 1;
                List<String> path = p.keyPath(']');
                if (p.i >= line.length() || line.charAt(p.i) != ']') {
                    throw new IllegalArgumentException("line " + lineNo + ": malformed table header");
                }
                table = root;
                for (String k : path) {
                    table = child(table, k);
                }
                continue;
            }
            MiniToml p = new MiniToml(line);
            try {
                List<String> path = p.keyPath('=');
                p.skipSpace();
                if (p.i >= line.length() || line.charAt(p.i) != '=') {
                    continue;
                }
                p.i++;
                Object value = p.value();
                Map<String, Object> t = table;
                for (int k = 0; k < path.size() - 1; k++) {
                    t = child(t, path.get(k));
                }
                t.put(path.get(path.size() - 1), value);
            } catch (IllegalArgumentException | StringIndexOutOfBoundsException e) {
                // A value this reader does not model (multi-line strings, dates): the key is left out.
            }
        }
        return root;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> child(Map<String, Object> table, String key) {
        Object existing = table.get(key);
        if (existing instanceof Map<?, ?> m) {
            return (Map<String, Object>) m;
        }
        Map<String, Object> created = new LinkedHashMap<>();
        table.put(key, created);
        return created;
    }

    private void skipSpace() {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
    }

    private List<String> keyPath(char end) {
        List<String> path = new ArrayList<>();
        while (true) {
            skipSpace();
            if (i >= s.length()) {
                throw new IllegalArgumentException("unterminated key");
            }
            char c = s.charAt(i);
            if (c == '"' || c == '\'') {
                path.add(string());
            } else {
                int start = i;
                while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_' || s.charAt(i) == '-')) {
                    i++;
                }
                if (start == i) {
                    throw new IllegalArgumentException("empty key");
                }
                path.add(s.substring(start, i));
            }
            skipSpace();
            if (i < s.length() && s.charAt(i) == '.') {
                i++;
                continue;
            }
            return path;
        }
    }

    private Object value() {
        skipSpace();
        char c = s.charAt(i);
        if (c == '"' || c == '\'') {
            return string();
        }
        if (c == '[') {
            i++;
            List<Object> list = new ArrayList<>();
            while (true) {
                skipSpace();
                if (s.charAt(i) == ']') {
                    i++;
                    return list;
                }
                list.add(value());
                skipSpace();
                if (s.charAt(i) == ',') {
                    i++;
                }
            }
        }
        if (c == '{') {
            i++;
            Map<String, Object> table = new LinkedHashMap<>();
            while (true) {
                skipSpace();
                if (s.charAt(i) == '}') {
                    i++;
                    return table;
                }
                List<String> path = keyPath('=');
                skipSpace();
                if (s.charAt(i) != '=') {
                    throw new IllegalArgumentException("expected =");
                }
                i++;
                table.put(String.join(".", path), value());
                skipSpace();
                if (s.charAt(i) == ',') {
                    i++;
                }
            }
        }
        int start = i;
        while (i < s.length() && ",]} \t#".indexOf(s.charAt(i)) < 0) {
            i++;
        }
        String word = s.substring(start, i);
        if (word.equals("true") || word.equals("false")) {
            return Boolean.valueOf(word);
        }
        try {
            return Long.valueOf(word.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("unsupported value " + word);
        }
    }

    private String string() {
        char quote = s.charAt(i++);
        StringBuilder out = new StringBuilder();
        while (true) {
            char c = s.charAt(i++);
            if (c == quote) {
                return out.toString();
            }
            if (c == '\\' && quote == '"') {
                char e = s.charAt(i++);
                switch (e) {
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'r' -> out.append('\r');
                    case '"' -> out.append('"');
                    case '\\' -> out.append('\\');
                    case 'u' -> {
                        out.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> throw new IllegalArgumentException("unsupported escape \\" + e);
                }
            } else {
                out.append(c);
            }
        }
    }
}
