package dev.agentwarden.text;

import java.util.Collection;
import java.util.Locale;

/**
 * The closest known name to a mistyped one, for "did you mean" hints: edit distance (insert,
 * delete, substitute, swap of neighbours) of at most a third of the longer name, and at most 3.
 * Off the dispatch path except when a dispatch names an unknown host.
 */
public final class NearMiss {
    /** Names longer than this are not compared (an untrusted argument can be any length). */
    static final int MAX_CHARS = 64;

    private NearMiss() {
    }

    /** The closest of {@code known} to {@code typed}, or {@code null} when none is close. */
    public static String closest(String typed, Collection<String> known) {
        if (typed == null || typed.isEmpty() || typed.length() > MAX_CHARS) {
            return null;
        }
        String t = typed.toLowerCase(Locale.ROOT);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            if (k.length() > MAX_CHARS || k.equals(typed)) {
                continue;
            }
            int d = distance(t, k.toLowerCase(Locale.ROOT));
            int allowed = Math.min(3, Math.max(1, Math.max(t.length(), k.length()) / 3));
            if (d <= allowed && d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        return best;
    }

    /** {@code "; did you mean `x`?"} for the closest name, or the empty string. */
    public static String hint(String typed, Collection<String> known) {
        String c = closest(typed, known);
        return c == null ? "" : "; did you mean `" + c + "`?";
    }

    /** Optimal-string-alignment distance. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    v = Math.min(v, d[i - 2][j - 2] + 1);
                }
                d[i][j] = v;
            }
        }
        return d[a.length()][b.length()];
    }
}
