package dev.agentwarden.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The uid behind a loopback connection, from the kernel's socket tables. */
class PeerUidTest {
    private static final String[] PEER = {"0100007F:A1B2", "0000000000000000FFFF00000100007F:A1B2"};
    /** Three rows: the server's listener, the server's side of the connection, the peer's side. */
    private static final String TABLE = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0 100 0 0 10 0
               1: 0100007F:1F90 0100007F:A1B2 01 00000000:00000000 00:00000000 00000000     0        0 2 1 0 20 4 30 10 -1
               2: 0100007F:A1B2 0100007F:1F90 01 00000000:00000000 00:00000000 00000000  1000        0 3 1 0 20 4 30 10 -1
            """;

    @Test
    void find_peersRow_givesItsUid_notTheServersSide() {
        assertThat(PeerUid.find(TABLE, PEER, 0x1F90)).isEqualTo(1000);
    }

    @Test
    void find_sameLocalPortToAnotherServerPort_unknown() {
        assertThat(PeerUid.find(TABLE, PEER, 0x1F91)).isEqualTo(PeerUid.UNKNOWN);
    }

    @Test
    void find_sameLocalPortOnAnotherLoopbackAddress_unknown() {
        String[] other = {"0200007F:A1B2", "0000000000000000FFFF00000200007F:A1B2"};
        assertThat(PeerUid.find(TABLE, other, 0x1F90)).isEqualTo(PeerUid.UNKNOWN);
    }

    @Test
    void find_v4MappedRowOfTcp6_givesItsUid() {
        String tcp6 = """
                  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
                   0: 0000000000000000FFFF00000100007F:A1B2 0000000000000000FFFF00000100007F:1F90 01 00000000:00000000 00:00000000 00000000   42        0 3 1
                """;
        assertThat(PeerUid.find(tcp6, PEER, 0x1F90)).isEqualTo(42);
    }

    @Test
    void of_aRealLoopbackConnection_isThisProcessesUid() throws Exception {
        Assumptions.assumeTrue(PeerUid.self() != PeerUid.UNKNOWN, "needs /proc");
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
             Socket client = new Socket(InetAddress.getByName("127.0.0.1"), server.getLocalPort());
             Socket accepted = server.accept()) {
            assertThat(PeerUid.of((InetSocketAddress) accepted.getRemoteSocketAddress(), server.getLocalPort()))
                    .isEqualTo(PeerUid.self());
        }
    }
}
