package dev.agentwarden.json;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Text edits on a JSON document read by {@link JsonSpans}: add an item at the end of an object or
 * array, or take one out. Every byte outside the edited span stays as it was.
 *
 * <p>An added item follows the layout around it: on its own line at its siblings' indentation,
 * nesting by the step from its container's line to its siblings (into an empty container, by the
 * document's first indentation, two spaces by default); or, where its siblings share one line,
 * on that line in compact form.
 * Removing the item an append added gives back the bytes from before the append, so an
 * install then uninstall restores a file exactly; a container emptied that way is written
 * {@code []} or {@code {}}, unless other whitespace stood there.
 */
public final class JsonSplice {
    private JsonSplice() {
    }

    /** {@code doc} with member {@code key: value} added at the end of {@code object}. */
    public static byte[] appendMember(byte[] doc, JsonSpans.Value object, String key, Object value) {
        String quotedKey = Json.write(key);
        return append(doc, object, quotedKey + ": ", quotedKey + ":", value);
    }

    /** {@code doc} with {@code value} added at the end of {@code array}. */
    public static byte[] appendElement(byte[] doc, JsonSpans.Value array, Object value) {
        return append(doc, array, "", "", value);
    }

    /** {@code doc} without item {@code index} of {@code container} (a member or an element), with its separator. */
    public static byte[] remove(byte[] doc, JsonSpans.Value container, int index) {
        List<int[]> items = items(container);
        int[] item = items.get(index);
        if (items.size() > 1) {
            return index > 0 ? splice(doc, items.get(index - 1)[1], item[1], "")
                    : splice(doc, item[0], items.get(1)[0], "");
        }
        String before = latin1(doc, container.start() + 1, item[0]);
        String after = latin1(doc, item[1], container.end() - 1);
        boolean asAppended = before.startsWith("\n") || before.startsWith("\r\n");
        String inner = asAppended && after.equals(newline(doc) + lineIndent(doc, container.start())) ? "" : after;
        return splice(doc, container.start() + 1, container.end() - 1, inner);
    }

    private static byte[] append(byte[] doc, JsonSpans.Value container, String prettyPrefix, String compactPrefix,
                                 Object value) {
        List<int[]> items = items(container);
        String nl = newline(doc);
        if (items.isEmpty()) {
            String parentIndent = lineIndent(doc, container.start());
            String indent = parentIndent + indentUnit(doc);
            String inside = latin1(doc, container.start() + 1, container.end() - 1);
            String text = nl + indent + prettyPrefix + pretty(value, indent, indentUnit(doc), nl)
                    + (inside.isEmpty() ? nl + parentIndent : inside);
            return splice(doc, container.start() + 1, container.end() - 1, text);
        }
        int[] last = items.get(items.size() - 1);
        int wsFrom = items.size() == 1 ? container.start() + 1 : indexOf(doc, ',', items.get(items.size() - 2)[1]) + 1;
        String before = latin1(doc, wsFrom, last[0]);
        int lineBreak = before.lastIndexOf('\n');
        String text;
        if (lineBreak >= 0) {
            String indent = before.substring(lineBreak + 1);
            String containerIndent = lineIndent(doc, container.start());
            String unit = indent.length() > containerIndent.length() && indent.startsWith(containerIndent)
                    ? indent.substring(containerIndent.length()) : indentUnit(doc);
            text = "," + nl + indent + prettyPrefix + pretty(value, indent, unit, nl);
        } else {
            text = "," + before + compactPrefix + Json.write(value);
        }
        return splice(doc, last[1], last[1], text);
    }

    /** Each item's span: a member from its key to the end of its value, an element as itself. */
    private static List<int[]> items(JsonSpans.Value container) {
        List<int[]> out = new ArrayList<>();
        if (container.kind() == JsonSpans.Kind.OBJECT) {
            for (JsonSpans.Member m : container.members()) {
                out.add(new int[] {m.start(), m.end()});
            }
        } else if (container.kind() == JsonSpans.Kind.ARRAY) {
            for (JsonSpans.Value v : container.elements()) {
                out.add(new int[] {v.start(), v.end()});
            }
        } else {
            throw new IllegalArgumentException("not an object or array: " + container.kind());
        }
        return out;
    }

    /** {@code value} as indented JSON whose lines after the first start with {@code indent}. */
    private static String pretty(Object value, String indent, String unit, String nl) {
        String[] lines = Json.writePretty(value).strip().split("\n", -1);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int spaces = 0;
            while (spaces < line.length() && line.charAt(spaces) == ' ') {
                spaces++;
            }
            if (i > 0) {
                out.append(nl).append(indent);
            }
            out.append(unit.repeat(spaces / 2)).append(line, spaces, line.length());
        }
        return out.toString();
    }

    /** The leading blanks of the first indented line, else two spaces. */
    private static String indentUnit(byte[] doc) {
        for (int i = 0; i < doc.length; i++) {
            if (doc[i] == '\n') {
                int j = i + 1;
                while (j < doc.length && (doc[j] == ' ' || doc[j] == '\t')) {
                    j++;
                }
                if (j > i + 1 && j < doc.length && doc[j] != '\n' && doc[j] != '\r') {
                    return latin1(doc, i + 1, j);
                }
            }
        }
        return "  ";
    }

    /** The leading blanks of the line holding {@code at}. */
    private static String lineIndent(byte[] doc, int at) {
        int lineStart = at;
        while (lineStart > 0 && doc[lineStart - 1] != '\n') {
            lineStart--;
        }
        int end = lineStart;
        while (end < at && (doc[end] == ' ' || doc[end] == '\t')) {
            end++;
        }
        return latin1(doc, lineStart, end);
    }

    private static String newline(byte[] doc) {
        for (int i = 0; i < doc.length; i++) {
            if (doc[i] == '\n') {
                return i > 0 && doc[i - 1] == '\r' ? "\r\n" : "\n";
            }
        }
        return "\n";
    }

    private static int indexOf(byte[] doc, char c, int from) {
        for (int i = from; i < doc.length; i++) {
            if (doc[i] == c) {
                return i;
            }
        }
        throw new IllegalStateException("no '" + c + "' after offset " + from);
    }

    private static String latin1(byte[] doc, int from, int to) {
        return new String(doc, from, to - from, StandardCharsets.ISO_8859_1);
    }

    private static byte[] splice(byte[] doc, int from, int to, String text) {
        byte[] insert = text.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[doc.length - (to - from) + insert.length];
        System.arraycopy(doc, 0, out, 0, from);
        System.arraycopy(insert, 0, out, from, insert.length);
        System.arraycopy(doc, to, out, from + insert.length, doc.length - to);
        return out;
    }
}
