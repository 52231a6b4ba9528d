package dev.agentwarden.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link LoopbackListener}: the uid behind a listening loopback port, from the kernel's socket tables. */
class LoopbackListenerTest {
    private static final String HEADER = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n";

    private static int scan(String rows, int port) throws Exception {
        return LoopbackListener.scan(new ByteArrayInputStream((HEADER + rows).getBytes(StandardCharsets.US_ASCII)), port);
    }

    private static String row(String local, String remote, String state, int uid) {
        return "   0: " + local + " " + remote + " " + state + " 00000000:00000000 00:00000000 00000000  " + uid
                + "        0 12345 1 0000000000000000 100 0 0 10 0\n";
    }

    @Test
    void scan_listenerOnLoopbackPort_givesItsUid() throws Exception {
        // 27123 = 0x69F3
        assertThat(scan(row("0100007F:69F3", "00000000:0000", "0A", 1234), 27123)).isEqualTo(1234);
    }

    @Test
    void scan_wildcardAndMappedAddresses_countAsReachingLoopback() throws Exception {
        assertThat(scan(row("00000000:69F3", "00000000:0000", "0A", 77), 27123)).isEqualTo(77);
        assertThat(scan(row("0000000000000000FFFF00000100007F:69F3", "00000000000000000000000000000000:0000", "0A", 78),
                27123)).isEqualTo(78);
        assertThat(scan(row("00000000000000000000000000000000:69F3", "00000000000000000000000000000000:0000", "0A", 79),
                27123)).isEqualTo(79);
    }

    @Test
    void scan_connectionsOtherPortsAndOtherAddresses_areNotListeners() throws Exception {
        String rows = row("0100007F:69F3", "0100007F:9C40", "01", 1000) // an established connection from the port
                + row("0100007F:69F4", "00000000:0000", "0A", 1001)    // a listener on another port
                + row("0A00000A:69F3", "00000000:0000", "0A", 1002);   // a listener on 10.0.0.10 only
        assertThat(scan(rows, 27123)).isEqualTo(LoopbackListener.NONE);
    }

    @Test
    void scan_overlongOrTruncatedRows_areSkipped() throws Exception {
        String overlong = "   0: 0100007F:69F3 00000000:0000 0A " + "x".repeat(600) + " 1003\n";
        String truncated = "   1: 0100007F:69F3 00000000:0000 0A\n";
        assertThat(scan(overlong + truncated + row("0100007F:69F3", "00000000:0000", "0A", 1004), 27123))
                .isEqualTo(1004);
    }

    @Test
    void ownerUid_ofAPortThisProcessListensOn_isThisUser() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            assertThat(LoopbackListener.ownerUid(s.getLocalPort())).isEqualTo(OwnedPath.currentUid());
        }
    }

    @Test
    void ownerUid_ofAClosedPort_isNone() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        assertThat(LoopbackListener.ownerUid(port)).isEqualTo(LoopbackListener.NONE);
    }
}
