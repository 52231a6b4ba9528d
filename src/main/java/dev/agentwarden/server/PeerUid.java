package dev.agentwarden.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The user behind a loopback TCP connection, from the kernel's socket tables ({@code /proc/net/tcp}
 * and {@code tcp6}, readable by everyone on Linux): the row whose local port is the peer's and
 * whose remote end is this server's loopback address and port carries the uid that created the
 * peer's socket.
 */
final class PeerUid {
    /** No row was found (not Linux, the peer already went away, or the tables are not readable). */
    static final int UNKNOWN = -1;
    private static final String V4_LOOPBACK = "0100007F";
    private static final String V6_MAPPED_LOOPBACK = "0000000000000000FFFF00000100007F";
    private static final Path[] TABLES = {Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6")};

    private PeerUid() {
    }

    /** The uid of the process that opened the connection from {@code peer} to 127.0.0.1:{@code serverPort}. */
    static int of(InetSocketAddress peer, int serverPort) {
        byte[] ip = peer.getAddress().getAddress();
        if (ip.length != 4) {
            return UNKNOWN;
        }
        String v4 = String.format(Locale.ROOT, "%02X%02X%02X%02X", ip[3], ip[2], ip[1], ip[0]);
        String[] locals = {v4 + ":" + hex(peer.getPort()), "0000000000000000FFFF0000" + v4 + ":" + hex(peer.getPort())};
        for (Path table : TABLES) {
            String text;
            try {
                text = Files.readString(table, StandardCharsets.US_ASCII);
            } catch (IOException | RuntimeException e) {
                continue;
            }
            int uid = find(text, locals, serverPort);
            if (uid != UNKNOWN) {
                return uid;
            }
        }
        return UNKNOWN;
    }

    /** This process's uid, or {@link #UNKNOWN}. */
    static int self() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        }
    }

    /** The uid column of the row whose local address is one of {@code locals} and remote is the server's. */
    static int find(String table, String[] locals, int serverPort) {
        String remoteV4 = V4_LOOPBACK + ":" + hex(serverPort);
        String remoteV6 = V6_MAPPED_LOOPBACK + ":" + hex(serverPort);
        int start = table.indexOf('\n') + 1;
        while (start > 0 && start < table.length()) {
            int end = table.indexOf('\n', start);
            if (end < 0) {
                end = table.length();
            }
            String[] f = table.substring(start, end).trim().split("\\s+");
            start = end + 1;
            // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid ...
            if (f.length < 8 || !(f[1].equals(locals[0]) || f[1].equals(locals[1])) || !(f[2].equals(remoteV4) || f[2].equals(remoteV6))) {
                continue;
            }
            try {
                return Integer.parseInt(f[7]);
            } catch (NumberFormatException e) {
                return UNKNOWN;
            }
        }
        return UNKNOWN;
    }

    private static String hex(int port) {
        return String.format(Locale.ROOT, "%04X", port);
    }
}
