package dev.agentwarden.manifest;

import java.util.ArrayList;
import java.util.List;

/** A YAML parser's complaint in plain words, and the key path a line sits under. */
final class YamlErrors {
    private YamlErrors() {
    }

    /**
     * Whether a complaint with this context is best reported where its context began: a quoted
     * value never closed is noticed only where the text ends, the quote is where it opened.
     */
    static boolean reportedWhereItOpened(String context) {
        return context != null && context.contains("while scanning a quoted scalar");
    }

    /** What went wrong at a line and column, said without parser jargon. */
    static String plainWords(String problem, int line, int column) {
        String p = problem == null ? "" : problem;
        String at = "line " + line + ", column " + column + ": ";
        if (p.contains("found character '\\t'") || p.contains("found a tab")) {
            return at + "a tab character; YAML indents with spaces only";
        }
        if (p.contains("expected <block end>")) {
            return at + "this line is indented differently from the keys around it; "
                    + "align it with its sibling keys, or indent it under a key that ends in ':'";
        }
        if (p.contains("mapping values are not allowed")) {
            return at + "a ':' where a plain value was expected; quote the value, or start a new line for the key";
        }
        if (p.contains("could not find expected ':'")) {
            return at + "a line inside a mapping has no 'key:'";
        }
        if (p.contains("expected ',' or ']'") || p.contains("expected ',' or '}'") || p.contains("flow")) {
            return at + "an unclosed [ … ] or { … }; close it, or write the list one '- item' per line";
        }
        if (p.contains("found unexpected end of stream") || p.contains("while scanning a quoted scalar")) {
            return at + "a quoted value starts here and is never closed";
        }
        if (p.contains("found undefined alias") || p.contains("found undefined anchor")) {
            return at + "an alias (*name) with no anchor (&name) before it";
        }
        return at + "not valid YAML (" + p.replace("<", "").replace(">", "") + ")";
    }

    /**
     * The dotted path of the block keys enclosing a 1-based line (that line's own key included),
     * read from indentation, or the empty string. A key with its value on its own line is a leaf:
     * nothing nests under it. A best guess for a text that does not parse.
     */
    static String keyPathAt(String text, int line) {
        String[] lines = text.split("\n", -1);
        List<int[]> indents = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < Math.min(line, lines.length); i++) {
            String l = lines[i];
            int indent = 0;
            while (indent < l.length() && (l.charAt(indent) == ' ' || l.charAt(indent) == '-')) {
                indent++;
            }
            String rest = l.substring(indent);
            if (rest.isEmpty() || rest.startsWith("#")) {
                continue;
            }
            int colon = rest.indexOf(':');
            if (colon <= 0 || (colon + 1 < rest.length() && rest.charAt(colon + 1) != ' ')) {
                continue;
            }
            String key = rest.substring(0, colon).strip();
            if (key.startsWith("[") || key.startsWith("{") || key.contains(" ")) {
                continue;
            }
            while (!indents.isEmpty() && (indents.get(indents.size() - 1)[0] >= indent
                    || indents.get(indents.size() - 1)[1] == 1)) {
                indents.remove(indents.size() - 1);
                keys.remove(keys.size() - 1);
            }
            boolean inlineValue = !rest.substring(colon + 1).strip().isEmpty()
                    && !rest.substring(colon + 1).strip().startsWith("#")
                    && !rest.substring(colon + 1).strip().startsWith("&");
            indents.add(new int[] {indent, inlineValue ? 1 : 0});
            keys.add(key);
        }
        return String.join(".", keys);
    }
}
