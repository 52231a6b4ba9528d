package dev.agentwarden.trust;

import java.util.ArrayList;
import java.util.List;

/**
 * A line diff of two texts in a unified style, for {@code warden trust} to show what changed since
 * the last trust: {@code @@ -a,n +b,m @@} hunks with {@link #CONTEXT} lines of context, removed lines
 * as {@code - }, added as {@code + }, kept as two spaces. The common head and tail are skipped first;
 * the middle is matched by longest common subsequence when it is at most {@link #MAX_CELLS} cells,
 * else shown as all removed then all added (still exact, only less tidy).
 */
public final class LineDiff {
    /** Unchanged lines shown around each change. */
    static final int CONTEXT = 2;

    /** Largest old-lines × new-lines table matched line by line. */
    static final long MAX_CELLS = 4_000_000L;

    private LineDiff() {
    }

    /** The diff's lines; empty when the texts have the same lines. */
    public static List<String> of(String before, String after) {
        String[] a = lines(before);
        String[] b = lines(after);
        int head = 0;
        while (head < a.length && head < b.length && a[head].equals(b[head])) {
            head++;
        }
        int tail = 0;
        while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail].equals(b[b.length - 1 - tail])) {
            tail++;
        }
        List<Op> ops = new ArrayList<>();
        for (int i = 0; i < head; i++) {
            ops.add(new Op(' ', a[i]));
        }
        middle(a, head, a.length - tail, b, head, b.length - tail, ops);
        for (int i = a.length - tail; i < a.length; i++) {
            ops.add(new Op(' ', a[i]));
        }
        return hunks(ops);
    }

    private record Op(char kind, String line) {
    }

    private static void middle(String[] a, int a0, int a1, String[] b, int b0, int b1, List<Op> ops) {
        int n = a1 - a0;
        int m = b1 - b0;
        if ((long) n * m > MAX_CELLS) {
            for (int i = a0; i < a1; i++) {
                ops.add(new Op('-', a[i]));
            }
            for (int j = b0; j < b1; j++) {
                ops.add(new Op('+', b[j]));
            }
            return;
        }
        int[][] lcs = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                lcs[i][j] = a[a0 + i].equals(b[b0 + j]) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        int i = 0;
        int j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && a[a0 + i].equals(b[b0 + j])) {
                ops.add(new Op(' ', a[a0 + i]));
                i++;
                j++;
            } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
                ops.add(new Op('-', a[a0 + i]));
                i++;
            } else {
                ops.add(new Op('+', b[b0 + j]));
                j++;
            }
        }
    }

    /** The ops grouped into hunks with their headers, unchanged runs beyond the context left out. */
    private static List<String> hunks(List<Op> ops) {
        List<String> out = new ArrayList<>();
        int k = 0;
        int oldLine = 1;
        int newLine = 1;
        while (k < ops.size()) {
            int change = k;
            while (change < ops.size() && ops.get(change).kind() == ' ') {
                change++;
            }
            if (change == ops.size()) {
                break;
            }
            int start = Math.max(k, change - CONTEXT);
            oldLine += start - k;
            newLine += start - k;
            // extend while the next change is within 2 × CONTEXT unchanged lines
            int end = change;
            int quiet = 0;
            while (end < ops.size() && quiet <= 2 * CONTEXT) {
                quiet = ops.get(end).kind() == ' ' ? quiet + 1 : 0;
                end++;
            }
            end -= Math.max(0, quiet - CONTEXT);
            int oldCount = 0;
            int newCount = 0;
            List<String> body = new ArrayList<>();
            for (int x = start; x < end; x++) {
                Op op = ops.get(x);
                body.add((op.kind() == ' ' ? " " : String.valueOf(op.kind())) + " " + op.line());
                oldCount += op.kind() == '+' ? 0 : 1;
                newCount += op.kind() == '-' ? 0 : 1;
            }
            out.add("@@ -" + oldLine + "," + oldCount + " +" + newLine + "," + newCount + " @@");
            out.addAll(body);
            oldLine += oldCount;
            newLine += newCount;
            k = end;
        }
        return out;
    }

    private static String[] lines(String text) {
        if (text.isEmpty()) {
            return new String[0];
        }
        String t = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
        return t.split("\n", -1);
    }
}
