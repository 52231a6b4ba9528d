package dev.agentwarden.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The uids behind loopback connections, from the kernel's socket tables. */
class PeerUidTest {
    private static final int SERVER = 0x1F90;
    /** Three rows: the server's listener, the server's side of the connection, the peer's side. */
    private static final String TABLE = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0 100 0 0 10 0
               1: 0100007F:1F90 0100007F:A1B2 01 00000000:00000000 00:00000000 00000000     0        0 2 1 0 20 4 30 10 -1
               2: 0100007F:A1B2 0100007F:1F90 01 00000000:00000000 00:00000000 00000000  1000        0 3 1 0 20 4 30 10 -1
            """;

    private static InetSocketAddress peer(String address, int port) throws IOException {
        return new InetSocketAddress(InetAddress.getByName(address), port);
    }

    /** Resolves {@code peers} against {@code table} as {@link PeerUid#ofAll} does against the kernel's. */
    private static int[] resolve(String table, int serverPort, InetSocketAddress... peers) throws IOException {
        int[] uids = new int[peers.length];
        Arrays.fill(uids, PeerUid.UNKNOWN);
        Map<Long, Integer> wanted = new HashMap<>();
        for (int i = 0; i < peers.length; i++) {
            wanted.put(PeerUid.key(peers[i]), i);
        }
        PeerUid.resolve(new ByteArrayInputStream(table.getBytes(StandardCharsets.US_ASCII)), wanted, serverPort, uids);
        return uids;
    }

    @Test
    void resolve_peersRow_givesItsUid_notTheServersSide() throws IOException {
        assertThat(resolve(TABLE, SERVER, peer("127.0.0.1", 0xA1B2))).containsExactly(1000);
    }

    @Test
    void resolve_sameLocalPortToAnotherServerPort_unknown() throws IOException {
        assertThat(resolve(TABLE, SERVER + 1, peer("127.0.0.1", 0xA1B2))).containsExactly(PeerUid.UNKNOWN);
    }

    @Test
    void resolve_sameLocalPortOnAnotherLoopbackAddress_unknown() throws IOException {
        assertThat(resolve(TABLE, SERVER, peer("127.0.0.2", 0xA1B2))).containsExactly(PeerUid.UNKNOWN);
    }

    @Test
    void resolve_v4MappedRowOfTcp6_givesItsUid() throws IOException {
        String tcp6 = """
                  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
                   0: 0000000000000000FFFF00000100007F:A1B2 0000000000000000FFFF00000100007F:1F90 01 00000000:00000000 00:00000000 00000000   42        0 3 1
                """;
        assertThat(resolve(tcp6, SERVER, peer("127.0.0.1", 0xA1B2))).containsExactly(42);
    }

    @Test
    void resolve_closedSocketsRowWithoutInode_namesNobody_notRoot() throws IOException {
        // a TIME_WAIT or orphaned FIN_WAIT2 row: the kernel shows uid 0 and inode 0 for it
        String table = """
                  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
                   0: 0100007F:A1B2 0100007F:1F90 06 00000000:00000000 03:00000F2A 00000000     0        0 0 3 0000000000000000
                """;
        assertThat(resolve(table, SERVER, peer("127.0.0.1", 0xA1B2))).containsExactly(PeerUid.UNKNOWN);
    }

    @Test
    void resolve_manyPeersInOnePass_eachGetsItsOwnRowsUid() throws IOException {
        StringBuilder table = new StringBuilder("  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n");
        int n = 3000;
        InetSocketAddress[] peers = new InetSocketAddress[n];
        for (int i = 0; i < n; i++) {
            int port = 20000 + i;
            peers[i] = peer("127.0.0.1", port);
            // the server's side first (uid of the server), then noise to other ports, then the peer's row
            table.append(String.format(Locale.ROOT, "%4d: 0100007F:1F90 0100007F:%04X 01 00000000:00000000 00:00000000 00000000     7        0 %d 1\n",
                    3 * i, port, 100000 + i));
            table.append(String.format(Locale.ROOT, "%4d: 0100007F:%04X 0100007F:1F91 01 00000000:00000000 00:00000000 00000000  9999        0 %d 1\n",
                    3 * i + 1, port, 200000 + i));
            table.append(String.format(Locale.ROOT, "%4d: 0100007F:%04X 0100007F:1F90 01 00000000:00000000 00:00000000 00000000 %5d        0 %d 1\n",
                    3 * i + 2, port, 1000 + i % 50, 300000 + i));
        }
        int[] uids = resolve(table.toString(), SERVER, peers);
        for (int i = 0; i < n; i++) {
            assertThat(uids[i]).as("peer %d", i).isEqualTo(1000 + i % 50);
        }
    }

    @Test
    void resolve_truncatedAndGarbageRows_skipped() throws IOException {
        String table = TABLE.replace("   1: 0100007F:1F90", "   1: 0100007F:ZZZZ") + "   3: 0100007F:A1B3 0100007F:1F90 01 0000\n"
                + "   4: " + "x".repeat(2000) + "\n";
        assertThat(resolve(table, SERVER, peer("127.0.0.1", 0xA1B2), peer("127.0.0.1", 0xA1B3)))
                .containsExactly(1000, PeerUid.UNKNOWN);
    }

    @Test
    void ofAll_manyRealLoopbackConnections_eachIsThisProcessesUid() throws Exception {
        Assumptions.assumeTrue(PeerUid.self() != PeerUid.UNKNOWN, "needs /proc");
        List<Socket> clients = new ArrayList<>();
        List<Socket> accepted = new ArrayList<>();
        try (ServerSocket server = new ServerSocket(0, 512, InetAddress.getByName("127.0.0.1"))) {
            List<InetSocketAddress> peers = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                clients.add(new Socket(InetAddress.getByName("127.0.0.1"), server.getLocalPort()));
                Socket s = server.accept();
                accepted.add(s);
                peers.add((InetSocketAddress) s.getRemoteSocketAddress());
            }
            int[] uids = PeerUid.ofAll(peers, server.getLocalPort());
            for (int i = 0; i < uids.length; i++) {
                assertThat(uids[i]).as("connection %d", i).isEqualTo(PeerUid.self());
            }
            assertThat(PeerUid.of(peers.get(0), server.getLocalPort() == 65535 ? 1 : server.getLocalPort() + 1))
                    .as("the same peer to another server port").isEqualTo(PeerUid.UNKNOWN);
        } finally {
            for (Socket s : clients) {
                s.close();
            }
            for (Socket s : accepted) {
                s.close();
            }
        }
    }
}
