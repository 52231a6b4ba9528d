package dev.agentwarden.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A worker writes its answer to the non-blocking socket the {@link Front} hands it: an answer
 * larger than the socket takes at once still arrives whole once the client reads, and one the
 * client never reads is given up at the write deadline instead of holding the worker.
 */
class AnswerWriteTest {

    @Test
    void answer_largerThanTheSocketTakesAtOnce_arrivesWhole() throws Exception {
        byte[] answer = new byte[4 * 1024 * 1024];
        for (int i = 0; i < answer.length; i++) {
            answer[i] = (byte) (i * 31 + 7);
        }
        try (Pair p = Pair.open()) {
            CompletableFuture<Void> written = CompletableFuture.runAsync(() -> {
                try {
                    WardenServer.write(p.server, answer, 30_000);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            byte[] read = p.client.getInputStream().readNBytes(answer.length);
            written.get(30, TimeUnit.SECONDS);
            assertThat(Arrays.equals(read, answer)).as("every byte, in order").isTrue();
        }
    }

    @Test
    void answer_clientNeverReads_isGivenUpAtTheDeadline() throws Exception {
        try (Pair p = Pair.open()) {
            assertThatThrownBy(() -> WardenServer.write(p.server, new byte[16 * 1024 * 1024], 300))
                    .isInstanceOf(IOException.class).hasMessageContaining("took no answer for 300 ms");
        }
    }

    /** A loopback connection with small buffers: the server's end non-blocking, as the front hands it over. */
    private record Pair(ServerSocketChannel listener, Socket client, SocketChannel server) implements AutoCloseable {
        static Pair open() throws IOException {
            ServerSocketChannel listener = ServerSocketChannel.open();
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Socket client = new Socket();
            client.setReceiveBufferSize(4096);
            client.connect(listener.getLocalAddress());
            SocketChannel server = listener.accept();
            server.setOption(StandardSocketOptions.SO_SNDBUF, 4096);
            server.configureBlocking(false);
            return new Pair(listener, client, server);
        }

        @Override
        public void close() throws IOException {
            server.close();
            client.close();
            listener.close();
        }
    }

}
