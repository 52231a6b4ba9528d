package dev.agentwarden.digest;

/**
 * SHA-256 (FIPS 180-4) in plain Java, the one digest Warden computes over whole byte arrays: manifest
 * cache keys, ledger and evidence lines, release and trust records.
 *
 * <p>{@code MessageDigest.getInstance} initialises the security-provider framework (reading
 * {@code java.security}, service loading, logging), which costs about 10 ms of a cold start; this
 * class costs nothing to load, so the dispatch path can hash without it. Streaming a file whose size
 * is not bounded in memory is the one use left to {@code MessageDigest}.
 */
public final class Sha256 {
    private static final int[] K = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    };
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Sha256() {
    }

    /** Lower-case hex SHA-256 of {@code data}. */
    public static String hex(byte[] data) {
        return hex(data, 0, data.length);
    }

    /** Lower-case hex SHA-256 of {@code length} bytes of {@code data} from {@code offset}. */
    public static String hex(byte[] data, int offset, int length) {
        java.util.Objects.checkFromIndexSize(offset, length, data.length);
        int[] h = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
        long bitLength = (long) length * 8;
        int padded = ((length + 8) / 64 + 1) * 64;
        byte[] block = new byte[64];
        int[] w = new int[64];
        for (int start = 0; start < padded; start += 64) {
            for (int i = 0; i < 64; i++) {
                int at = start + i;
                if (at < length) {
                    block[i] = data[offset + at];
                } else if (at == length) {
                    block[i] = (byte) 0x80;
                } else if (at >= padded - 8) {
                    block[i] = (byte) (bitLength >>> (8 * (padded - 1 - at)));
                } else {
                    block[i] = 0;
                }
            }
            compress(h, block, w);
        }
        char[] out = new char[64];
        for (int i = 0; i < 8; i++) {
            for (int j = 0; j < 8; j++) {
                out[i * 8 + j] = HEX[(h[i] >>> (28 - 4 * j)) & 0xf];
            }
        }
        return new String(out);
    }

    /** Whether {@code s} is a SHA-256 as {@link #hex} writes it: 64 lower-case hex digits. */
    public static boolean isHex(String s) {
        if (s == null || s.length() != 64) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    private static void compress(int[] h, byte[] block, int[] w) {
        for (int i = 0; i < 16; i++) {
            w[i] = (block[4 * i] & 0xff) << 24 | (block[4 * i + 1] & 0xff) << 16
                    | (block[4 * i + 2] & 0xff) << 8 | (block[4 * i + 3] & 0xff);
        }
        for (int i = 16; i < 64; i++) {
            int s0 = Integer.rotateRight(w[i - 15], 7) ^ Integer.rotateRight(w[i - 15], 18) ^ (w[i - 15] >>> 3);
            int s1 = Integer.rotateRight(w[i - 2], 17) ^ Integer.rotateRight(w[i - 2], 19) ^ (w[i - 2] >>> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        int a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        for (int i = 0; i < 64; i++) {
            int s1 = Integer.rotateRight(e, 6) ^ Integer.rotateRight(e, 11) ^ Integer.rotateRight(e, 25);
            int ch = (e & f) ^ (~e & g);
            int t1 = hh + s1 + ch + K[i] + w[i];
            int s0 = Integer.rotateRight(a, 2) ^ Integer.rotateRight(a, 13) ^ Integer.rotateRight(a, 22);
            int maj = (a & b) ^ (a & c) ^ (b & c);
            int t2 = s0 + maj;
            hh = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        h[0] += a;
        h[1] += b;
        h[2] += c;
        h[3] += d;
        h[4] += e;
        h[5] += f;
        h[6] += g;
        h[7] += hh;
    }
}
