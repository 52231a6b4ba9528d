package dev.agentwarden.io;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Who listens on a loopback TCP port, from the kernel's socket tables ({@code /proc/net/tcp} and
 * {@code tcp6}, readable by everyone on Linux): the uid of the socket in state LISTEN whose local
 * port is the port and whose local address 127.0.0.1 reaches (127.0.0.1, 0.0.0.0, ::1, :: or
 * ::ffff:127.0.0.1).
 *
 * <p>Rows are parsed byte by byte with a length cap, so a table grown huge by a connection flood
 * costs one pass and no allocation per row.
 */
public final class LoopbackListener {
    /** No listener found, or the tables are not readable (not Linux). */
    public static final int NONE = -1;
    private static final String[] TABLES = {"/proc/net/tcp", "/proc/net/tcp6"};
    /** Rows are about 150 bytes; a longer one is not a socket row. */
    private static final int ROW_BYTES = 512;
    private static final String LISTEN = "0A";

    private LoopbackListener() {
    }

    /** The uid of the process listening on 127.0.0.1:{@code port}, or {@link #NONE}. */
    public static int ownerUid(int port) {
        for (String table : TABLES) {
            try (InputStream in = new BufferedInputStream(Files.newInputStream(Path.of(table)), 64 * 1024)) {
                int uid = scan(in, port);
                if (uid != NONE) {
                    return uid;
                }
            } catch (IOException | RuntimeException e) {
                // not Linux, or not readable: nothing known from this table
            }
        }
        return NONE;
    }

    /** {@link #ownerUid} over one table's text. */
    static int scan(InputStream in, int port) throws IOException {
        byte[] row = new byte[ROW_BYTES];
        int len = 0;
        boolean header = true;
        for (int c = in.read(); ; c = in.read()) {
            if (c == '\n' || c < 0) {
                if (!header && len < ROW_BYTES) {
                    int uid = listenerUid(new String(row, 0, len, java.nio.charset.StandardCharsets.US_ASCII), port);
                    if (uid != NONE) {
                        return uid;
                    }
                }
                header = false;
                len = 0;
                if (c < 0) {
                    return NONE;
                }
            } else if (len < ROW_BYTES) {
                row[len++] = (byte) c;
            }
        }
    }

    /**
     * The uid of one table row ({@code sl local rem st tx:rx tr:when retrnsmt uid …}) when it is a
     * listener on a loopback-reachable address and {@code port}, else {@link #NONE}.
     */
    static int listenerUid(String row, int port) {
        String[] f = fields(row, 8);
        if (f == null || !LISTEN.equals(f[3])) {
            return NONE;
        }
        int colon = f[1].indexOf(':');
        if (colon < 0 || !loopbackReachable(f[1].substring(0, colon))) {
            return NONE;
        }
        try {
            if (Integer.parseInt(f[1].substring(colon + 1), 16) != port) {
                return NONE;
            }
            return Integer.parseInt(f[7]);
        } catch (NumberFormatException e) {
            return NONE;
        }
    }

    /** Addresses as the tables print them: 32 bits (tcp) or 128 bits (tcp6) in host-order words. */
    private static boolean loopbackReachable(String address) {
        switch (address) {
            case "0100007F": // 127.0.0.1
            case "00000000": // 0.0.0.0
            case "00000000000000000000000001000000": // ::1
            case "00000000000000000000000000000000": // ::
            case "0000000000000000FFFF00000100007F": // ::ffff:127.0.0.1
                return true;
            default:
                return false;
        }
    }

    /** The first {@code n} whitespace-separated fields of {@code row}, or {@code null} when it has fewer. */
    private static String[] fields(String row, int n) {
        String[] out = new String[n];
        int i = 0;
        int at = 0;
        while (i < n) {
            while (at < row.length() && row.charAt(at) == ' ') {
                at++;
            }
            if (at >= row.length()) {
                return null;
            }
            int end = at;
            while (end < row.length() && row.charAt(end) != ' ') {
                end++;
            }
            out[i++] = row.substring(at, end);
            at = end;
        }
        return out;
    }
}
