package dev.agentwarden.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * Bash's brace expansion of one word, bounded: {@code a{b,c}d} is {@code abd acd}, {@code {1..3}}
 * is {@code 1 2 3}, {@code {a..c}} is {@code a b c}; nested braces expand inside out. A brace pair
 * with neither a top-level comma nor a sequence stays as it is.
 */
final class BraceExpansion {
    private BraceExpansion() {
    }

    /** The words {@code text} expands to, or {@code null} when there would be more than {@code max}. */
    static List<String> expand(String text, int max) {
        List<String> out = new ArrayList<>();
        return add(text, max, out) ? out : null;
    }

    /** Adds the expansions of {@code text} to {@code out}; false when {@code out} would pass {@code max}. */
    private static boolean add(String text, int max, List<String> out) {
        for (int open = text.indexOf('{'); open >= 0; open = text.indexOf('{', open + 1)) {
            int close = matching(text, open);
            if (close < 0) {
                continue;
            }
            List<String> parts = alternatives(text.substring(open + 1, close), max);
            if (parts == null) {
                return false;
            }
            if (parts.isEmpty()) {
                continue;
            }
            String head = text.substring(0, open);
            String tail = text.substring(close + 1);
            for (String part : parts) {
                if (!add(head + part + tail, max, out)) {
                    return false;
                }
            }
            return true;
        }
        if (out.size() >= max) {
            return false;
        }
        out.add(text);
        return true;
    }

    /** The index of the brace closing the one at {@code open}, or -1. */
    private static int matching(String text, int open) {
        int depth = 0;
        for (int i = open; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The comma-separated alternatives of a brace body, or its sequence; empty when it is
     * neither; {@code null} when a sequence is longer than {@code max}.
     */
    private static List<String> alternatives(String body, int max) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(body.substring(start, i));
                start = i + 1;
            }
        }
        if (!parts.isEmpty()) {
            parts.add(body.substring(start));
            return parts;
        }
        return sequence(body, max);
    }

    /** {@code A..B[..STEP]} with integers or single letters; empty when {@code body} is not one. */
    private static List<String> sequence(String body, int max) {
        int dots = body.indexOf("..");
        if (dots <= 0) {
            return List.of();
        }
        String from = body.substring(0, dots);
        String rest = body.substring(dots + 2);
        int dots2 = rest.indexOf("..");
        String to = dots2 < 0 ? rest : rest.substring(0, dots2);
        long step = 1;
        if (dots2 >= 0) {
            Long s = number(rest.substring(dots2 + 2));
            if (s == null) {
                return List.of();
            }
            step = Math.max(1, Math.abs(s));
        }
        Long a = number(from);
        Long b = number(to);
        boolean letters = a == null && from.length() == 1 && to.length() == 1
                && Character.isLetter(from.charAt(0)) && Character.isLetter(to.charAt(0));
        if (letters) {
            a = (long) from.charAt(0);
            b = (long) to.charAt(0);
        } else if (a == null || b == null) {
            return List.of();
        }
        if ((Math.abs(b - a) / step) + 1 > max) {
            return null;
        }
        List<String> out = new ArrayList<>();
        long dir = b >= a ? step : -step;
        for (long v = a; dir > 0 ? v <= b : v >= b; v += dir) {
            out.add(letters ? String.valueOf((char) v) : Long.toString(v));
        }
        return out;
    }

    private static Long number(String t) {
        if (t.isEmpty() || t.length() > 18) {
            return null;
        }
        int i = t.charAt(0) == '-' || t.charAt(0) == '+' ? 1 : 0;
        if (i == t.length()) {
            return null;
        }
        for (int k = i; k < t.length(); k++) {
            if (t.charAt(k) < '0' || t.charAt(k) > '9') {
                return null;
            }
        }
        return Long.parseLong(t);
    }
}
