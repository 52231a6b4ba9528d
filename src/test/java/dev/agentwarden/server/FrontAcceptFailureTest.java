package dev.agentwarden.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Issue 28 item 14: on a loaded machine the resident stopped answering, because one failed accept
 * (EMFILE, "Too many open files") ended the front's loop and the port answered nothing more. A
 * failed accept is now transient: the front pauses, says so, and accepts the waiting connection.
 */
class FrontAcceptFailureTest {

    @Test
    void acceptFailsWithTooManyOpenFiles_frontKeepsServing_andAnswersTheWaitingConnection() throws Exception {
        ServerSocketChannel listener = ServerSocketChannel.open(StandardProtocolFamily.INET);
        listener.bind(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 0));
        AtomicInteger failures = new AtomicInteger(5);
        Front.Acceptor flaky = () -> {
            if (failures.getAndDecrement() > 0) {
                throw new IOException("Too many open files");
            }
            return listener.accept();
        };
        Answering gate = new Answering();
        Front front = new Front(listener, gate, flaky);
        Thread t = new Thread(front, "test-front");
        t.setDaemon(true);
        t.start();
        try {
            for (int i = 0; i < 2; i++) {
                try (Socket s = new Socket(InetAddress.getLoopbackAddress(), listener.socket().getLocalPort())) {
                    s.setSoTimeout(30_000);
                    OutputStream out = s.getOutputStream();
                    out.write("POST /x HTTP/1.1\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    InputStream in = s.getInputStream();
                    assertThat(new String(in.readAllBytes(), StandardCharsets.US_ASCII)).startsWith("HTTP/1.1 200 ");
                }
            }
            assertThat(failures.get()).as("every planted failure was met").isNegative();
            assertThat(front.died()).isNull();
            assertThat(t.isAlive()).isTrue();
        } finally {
            front.stop();
            t.join(5_000);
            listener.close();
        }
    }

    /** A gate that greets nobody, accepts every head and answers 200 at once. */
    private static final class Answering implements Front.Gate {
        @Override
        public byte[] greeting(int peerUid) {
            return new byte[0];
        }

        @Override
        public Reply check(Front.Head head) {
            return null;
        }

        @Override
        public void accepted(Front.Request request) {
            try (SocketChannel ch = request.channel()) {
                ch.write(ByteBuffer.wrap(new Reply(200, new byte[0], 0, "", -1).bytes()));
            } catch (IOException e) {
                // the client went away
            }
        }

        @Override
        public void abandoned() {
        }
    }
}
