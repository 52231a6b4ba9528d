package dev.agentwarden.ledger;

/**
 * Checks of the short tokens the ledger reads and writes (refs, month names, session ids, agent
 * types, labels), written as character loops: the dispatch path compiles no regular expressions.
 */
public final class TokenShape {
    private TokenShape() {
    }

    /** {@code s} has {@code length} characters of {@code [0-9a-f]}. */
    public static boolean isLowerHex(String s, int length) {
        if (s == null || s.length() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    /** {@code s} has {@code min}–{@code max} characters, each an ASCII letter, a digit or one of {@code punctuation}. */
    public static boolean isWord(String s, int min, int max, String punctuation) {
        if (s == null || s.length() < min || s.length() > max) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || punctuation.indexOf(c) >= 0)) {
                return false;
            }
        }
        return true;
    }

    /** {@code s} is a month as segments are named, {@code 2026-05}. */
    public static boolean isMonth(String s) {
        if (s == null || s.length() != 7 || s.charAt(4) != '-') {
            return false;
        }
        for (int i : new int[] {0, 1, 2, 3, 5, 6}) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        int month = (s.charAt(5) - '0') * 10 + (s.charAt(6) - '0');
        return month >= 1 && month <= 12;
    }

    /**
     * {@code s} names a ledger segment: a month's first part ({@code 2026-05}) or a later part of it,
     * the month and a four-digit part number ({@code 2026-05.0001}); names sort in chain order.
     */
    public static boolean isSegment(String s) {
        if (s == null || s.length() != 7 && s.length() != 12) {
            return false;
        }
        if (s.length() == 12) {
            if (s.charAt(7) != '.') {
                return false;
            }
            for (int i = 8; i < 12; i++) {
                if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                    return false;
                }
            }
            if (s.endsWith(".0000")) {
                return false;
            }
        }
        return isMonth(s.substring(0, 7));
    }
}
