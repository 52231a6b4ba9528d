package dev.agentwarden.json;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Searches byte arrays eight bytes at a time (one {@code long} load, a few word operations per eight
 * bytes): the bulk readers' line and string scans. Each search returns exactly the index a byte-by-
 * byte loop would.
 *
 * <p>The word tests are the classic "has a zero byte" forms: {@code (x - 0x01…) & ~x & 0x80…} is
 * non-zero when some byte of {@code x} is zero, and its lowest set bit marks the lowest such byte
 * (a borrow can set bits only above a true match), so on a little-endian load the number of trailing
 * zeros divided by eight is the offset of the first match. Not for the dispatch path (the
 * {@link VarHandle} costs start-up there).
 */
public final class ByteWords {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long QUOTES = ONES * '"';
    private static final long BACKSLASHES = ONES * '\\';
    private static final long SPACES = ONES * 0x20;

    private ByteWords() {
    }

    /** The first index of {@code value} in {@code b[from, to)}, or -1. */
    public static int indexOf(byte[] b, int from, int to, byte value) {
        long pattern = ONES * (value & 0xff);
        int p = from;
        for (; p <= to - 8; p += 8) {
            long x = (long) LONGS.get(b, p) ^ pattern;
            long m = (x - ONES) & ~x & HIGHS;
            if (m != 0) {
                return p + (Long.numberOfTrailingZeros(m) >>> 3);
            }
        }
        for (; p < to; p++) {
            if (b[p] == value) {
                return p;
            }
        }
        return -1;
    }

    /**
     * The first index in {@code b[from, to)} of a byte that ends or interrupts a plain run of JSON
     * string text: {@code '"'}, {@code '\\'}, a control byte (below 0x20), and when {@code highBytes}
     * any byte above 0x7f; {@code to} when there is none.
     */
    public static int stringStop(byte[] b, int from, int to, boolean highBytes) {
        long high = highBytes ? HIGHS : 0;
        int p = from;
        for (; p <= to - 8; p += 8) {
            long w = (long) LONGS.get(b, p);
            long q = w ^ QUOTES;
            long s = w ^ BACKSLASHES;
            long m = ((q - ONES) & ~q | (s - ONES) & ~s | (w - SPACES) & ~w) & HIGHS | w & high;
            if (m != 0) {
                return p + (Long.numberOfTrailingZeros(m) >>> 3);
            }
        }
        for (; p < to; p++) {
            byte c = b[p];
            if (c == '"' || c == '\\' || c >= 0 && c < 0x20 || c < 0 && highBytes) {
                return p;
            }
        }
        return to;
    }

    /**
     * The {@code n} bytes (0 to 8) at {@code b[p]} as a little-endian word, the bytes past them zero;
     * may read, but ignores, bytes after them.
     */
    public static long word(byte[] b, int p, int n) {
        if (n <= 0) {
            return 0;
        }
        if (p <= b.length - 8) {
            long w = (long) LONGS.get(b, p);
            return n >= 8 ? w : w & ((1L << (n << 3)) - 1);
        }
        long w = 0;
        for (int i = Math.min(n, 8) - 1; i >= 0; i--) {
            w = w << 8 | (b[p + i] & 0xff);
        }
        return w;
    }
}
