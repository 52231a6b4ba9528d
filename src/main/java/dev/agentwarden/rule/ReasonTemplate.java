package dev.agentwarden.rule;

import dev.agentwarden.text.NearMiss;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A rule's reason: text in which {@code {field}} ({@code {tool.name}}, {@code {command}}) stands for
 * that field of the event view; {@code {{} and {@code }}} are literal braces. Unknown fields are
 * rejected when the manifest is read.
 */
final class ReasonTemplate {
    /** Longest rendering of one field in a reason. */
    static final int MAX_FIELD_CHARS = 300;

    /** Literal text and fields, alternating as written; a field part is a {@link RuleField}. */
    private final List<Object> parts;

    private ReasonTemplate(List<Object> parts) {
        this.parts = parts;
    }

    /** @throws IllegalArgumentException {@code reason: <what is wrong>} */
    static ReasonTemplate parse(String text) {
        List<Object> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '{' && i + 1 < text.length() && text.charAt(i + 1) == '{') {
                literal.append('{');
                i += 2;
                continue;
            }
            if (c == '}' && i + 1 < text.length() && text.charAt(i + 1) == '}') {
                literal.append('}');
                i += 2;
                continue;
            }
            if (c == '{') {
                int end = text.indexOf('}', i);
                if (end < 0) {
                    throw new IllegalArgumentException("reason: '{' at character " + (i + 1) + " is not closed (write {{ for a brace)");
                }
                String name = text.substring(i + 1, end).strip();
                RuleField field = RuleField.of(name);
                if (field == null) {
                    throw new IllegalArgumentException("reason: unknown field {" + name + "}; fields are " + RuleField.names()
                            + NearMiss.hint(name, RuleField.names()));
                }
                if (literal.length() > 0) {
                    parts.add(literal.toString());
                    literal.setLength(0);
                }
                parts.add(field);
                i = end + 1;
                continue;
            }
            literal.append(c);
            i++;
        }
        if (literal.length() > 0) {
            parts.add(literal.toString());
        }
        return new ReasonTemplate(parts);
    }

    /** The fields it names. */
    List<RuleField> fields() {
        List<RuleField> out = new ArrayList<>();
        for (Object p : parts) {
            if (p instanceof RuleField f) {
                out.add(f);
            }
        }
        return out;
    }

    /** The reason for one event view ({@link RuleView#values}). */
    String render(Map<String, Object> view) {
        StringBuilder sb = new StringBuilder();
        for (Object p : parts) {
            if (p instanceof RuleField f) {
                Object v = view.get(f.wire());
                String text = v instanceof List<?> l ? String.join(" ", strings(l)) : String.valueOf(v);
                sb.append(text.length() > MAX_FIELD_CHARS ? text.substring(0, MAX_FIELD_CHARS) + "…" : text);
            } else {
                sb.append((String) p);
            }
        }
        return sb.toString();
    }

    private static List<String> strings(List<?> list) {
        List<String> out = new ArrayList<>(list.size());
        for (Object o : list) {
            out.add(String.valueOf(o));
        }
        return out;
    }
}
