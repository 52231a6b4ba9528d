package dev.agentwarden.io;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The users behind loopback TCP connections, from the kernel's socket tables ({@code /proc/net/tcp}
 * and {@code tcp6}, readable by everyone on Linux): the row whose local end is the peer's address
 * and port and whose remote end is this server's 127.0.0.1 and port carries the uid that created
 * the peer's socket.
 *
 * <p>A whole batch of connections is resolved with one pass over the tables ({@code tcp6} only
 * when some remain unresolved), parsed byte by byte and left as soon as every connection is found:
 * under a connection flood the tables hold many thousands of rows, and the front must not read
 * them once per connection. A row without an inode (a socket its process has closed, in
 * {@code TIME_WAIT} or an orphaned {@code FIN_WAIT}, which the kernel shows as uid 0) names nobody.
 */
public final class PeerUid {
    /** No row was found (not Linux, the peer already went away, or the tables are not readable). */
    public static final int UNKNOWN = -1;
    private static final int V4_LOOPBACK = 0x0100007F;
    private static final Path[] TABLES = {Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6")};
    /** The longest row kept: rows are about 150 bytes; a longer one is not a socket row. */
    private static final int ROW_BYTES = 512;

    private PeerUid() {
    }

    /** The uid of the process that opened the connection from {@code peer} to 127.0.0.1:{@code serverPort}. */
    public static int of(InetSocketAddress peer, int serverPort) {
        return ofAll(List.of(peer), serverPort)[0];
    }

    /**
     * The uid behind each of {@code peers} (connections to 127.0.0.1:{@code serverPort}), in their
     * order; {@link #UNKNOWN} for a peer that is not IPv4, {@code null}, or has no row.
     */
    public static int[] ofAll(List<InetSocketAddress> peers, int serverPort) {
        int[] uids = new int[peers.size()];
        Arrays.fill(uids, UNKNOWN);
        Map<Long, Integer> wanted = new HashMap<>();
        for (int i = 0; i < peers.size(); i++) {
            InetSocketAddress peer = peers.get(i);
            if (peer != null && peer.getAddress() != null && peer.getAddress().getAddress().length == 4) {
                wanted.put(key(peer), i);
            }
        }
        for (Path table : TABLES) {
            if (wanted.isEmpty()) {
                break;
            }
            try (InputStream in = Files.newInputStream(table)) {
                resolve(in, wanted, serverPort, uids);
            } catch (IOException | RuntimeException e) {
                // not Linux or not readable: those peers stay unknown
            }
        }
        return uids;
    }

    /** This process's uid, or {@link #UNKNOWN}. */
    public static int self() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        }
    }

    /** A peer's address and port as one number: the address as the tables print it, then the port. */
    static long key(InetSocketAddress peer) {
        byte[] ip = peer.getAddress().getAddress();
        long tableAddress = (ip[3] & 0xFFL) << 24 | (ip[2] & 0xFFL) << 16 | (ip[1] & 0xFFL) << 8 | (ip[0] & 0xFFL);
        return tableAddress << 16 | peer.getPort();
    }

    /**
     * Reads a socket table and, for every row from a wanted peer to 127.0.0.1:{@code serverPort},
     * stores its uid at the peer's index and stops wanting it. Returns when nothing is wanted or
     * the table ends.
     */
    static void resolve(InputStream table, Map<Long, Integer> wanted, int serverPort, int[] uids) throws IOException {
        byte[] buf = new byte[64 * 1024];
        byte[] row = new byte[ROW_BYTES];
        int rowLength = 0;
        boolean overlong = false;
        boolean header = true;
        int n;
        while (!wanted.isEmpty() && (n = table.read(buf)) > 0) {
            for (int i = 0; i < n; i++) {
                byte b = buf[i];
                if (b != '\n') {
                    if (rowLength < ROW_BYTES) {
                        row[rowLength++] = b;
                    } else {
                        overlong = true;
                    }
                    continue;
                }
                if (!header && !overlong) {
                    row(row, rowLength, wanted, serverPort, uids);
                    if (wanted.isEmpty()) {
                        return;
                    }
                }
                header = false;
                overlong = false;
                rowLength = 0;
            }
        }
        if (!header && !overlong && rowLength > 0) {
            row(row, rowLength, wanted, serverPort, uids);
        }
    }

    /** One row: {@code sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...}. */
    private static void row(byte[] row, int length, Map<Long, Integer> wanted, int serverPort, int[] uids) {
        int[] start = new int[10];
        int[] end = new int[10];
        int fields = 0;
        int i = 0;
        while (fields < 10) {
            while (i < length && (row[i] == ' ' || row[i] == '\t' || row[i] == '\r')) {
                i++;
            }
            if (i >= length) {
                return;
            }
            start[fields] = i;
            while (i < length && row[i] != ' ' && row[i] != '\t' && row[i] != '\r') {
                i++;
            }
            end[fields++] = i;
        }
        long local = endpoint(row, start[1], end[1]);
        long remote = endpoint(row, start[2], end[2]);
        if (local < 0 || remote != ((long) V4_LOOPBACK << 16 | serverPort)) {
            return;
        }
        Integer index = wanted.get(local);
        long inode = decimal(row, start[9], end[9]);
        long uid = decimal(row, start[7], end[7]);
        if (index == null || inode <= 0 || uid < 0 || uid > Integer.MAX_VALUE) {
            return;
        }
        uids[index] = (int) uid;
        wanted.remove(local);
    }

    /**
     * An IPv4 endpoint ({@code 0100007F:A1B2}, or IPv4-mapped in {@code tcp6}) as {@link #key}
     * makes it, or -1 for anything else.
     */
    private static long endpoint(byte[] row, int from, int to) {
        int hexDigits = to - from - 5;
        if (hexDigits != 8 && hexDigits != 32 || row[to - 5] != ':') {
            return -1;
        }
        if (hexDigits == 32) {
            // ::ffff:a.b.c.d is 0000000000000000FFFF0000 then the IPv4 address
            long prefixHigh = hex(row, from, from + 16);
            long prefixLow = hex(row, from + 16, from + 24);
            if (prefixHigh != 0 || prefixLow != 0xFFFF0000L) {
                return -1;
            }
            from += 24;
        }
        long address = hex(row, from, from + 8);
        long port = hex(row, to - 4, to);
        return address < 0 || port < 0 ? -1 : address << 16 | port;
    }

    /** The hex digits in {@code [from, to)} (at most 16), or -1 when one is not a hex digit. */
    private static long hex(byte[] row, int from, int to) {
        long v = 0;
        for (int i = from; i < to; i++) {
            int d = Character.digit(row[i], 16);
            if (d < 0) {
                return -1;
            }
            v = v << 4 | d;
        }
        return v;
    }

    /** The decimal digits in {@code [from, to)} (at most 18), or -1 when they are not a number. */
    private static long decimal(byte[] row, int from, int to) {
        if (to <= from || to - from > 18) {
            return -1;
        }
        long v = 0;
        for (int i = from; i < to; i++) {
            if (row[i] < '0' || row[i] > '9') {
                return -1;
            }
            v = v * 10 + (row[i] - '0');
        }
        return v;
    }
}
