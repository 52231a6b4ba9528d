package dev.agentwarden.install.codex;

/**
 * Line-level reading and writing of the TOML that {@link CodexRequirementsFile} splices: whole lines, keys and values
 * of {@code key = value} lines, comments outside strings, and the basic strings Warden writes. Not a TOML parser: it
 * answers only what a splice needs to know and leaves every other byte alone.
 */
final class TomlText {
    private TomlText() {
    }

    /** {@code text} without the first whole line equal to {@code line} (and its newline). */
    static String removeLine(String text, String line) {
        int at = lineStart(text, line);
        if (at < 0) {
            return text;
        }
        int after = at + line.length();
        if (after == text.length()) {
            return text.substring(0, at > 0 ? at - 1 : 0);
        }
        return text.substring(0, at) + text.substring(after + 1);
    }

    /** Where a line exactly equal to {@code line} starts, or -1. */
    static int lineStart(String text, String line) {
        int from = 0;
        while (true) {
            int at = text.indexOf(line, from);
            if (at < 0) {
                return -1;
            }
            int after = at + line.length();
            if ((at == 0 || text.charAt(at - 1) == '\n') && (after == text.length() || text.charAt(after) == '\n')) {
                return at;
            }
            from = at + 1;
        }
    }

    /** A line without its comment (outside strings) and surrounding space. */
    static String uncommented(String line) {
        boolean inString = false;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (inString) {
                if (c == '\\' && quote == '"') {
                    i++;
                } else if (c == quote) {
                    inString = false;
                }
            } else if (c == '"' || c == '\'') {
                inString = true;
                quote = c;
            } else if (c == '#') {
                return line.substring(0, i).strip();
            }
        }
        return line.strip();
    }

    /** The (dotted) key of a {@code key = value} line, spaces around dots removed; "" for another line. */
    static String keyOf(String s) {
        int eq = s.indexOf('=');
        if (eq <= 0) {
            return "";
        }
        return s.substring(0, eq).replace(" ", "").replace("\t", "").replace("\"", "");
    }

    static String valueOf(String s) {
        int eq = s.indexOf('=');
        return eq < 0 ? "" : s.substring(eq + 1).strip();
    }

    static boolean isBareKey(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    /** A TOML basic string. */
    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        b.append(String.format("\\u%04X", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    /** The value of a basic string Warden writes ({@link #quote}), or {@code null} for anything else. */
    static String unquote(String s) {
        if (s.length() < 2 || s.charAt(0) != '"' || s.charAt(s.length() - 1) != '"') {
            return null;
        }
        StringBuilder b = new StringBuilder();
        for (int i = 1; i < s.length() - 1; i++) {
            char c = s.charAt(i);
            if (c == '"') {
                return null;
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            if (++i >= s.length() - 1) {
                return null;
            }
            char e = s.charAt(i);
            switch (e) {
                case '"', '\\' -> b.append(e);
                case 'n' -> b.append('\n');
                case 't' -> b.append('\t');
                case 'r' -> b.append('\r');
                case 'u' -> {
                    if (i + 4 >= s.length() - 1) {
                        return null;
                    }
                    try {
                        b.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                    } catch (NumberFormatException ex) {
                        return null;
                    }
                    i += 4;
                }
                default -> {
                    return null;
                }
            }
        }
        return b.toString();
    }
}
