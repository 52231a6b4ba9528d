package dev.agentwarden.e2e;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Forwards every connection made to a Unix socket to a TCP port on 127.0.0.1. A socket file is
 * reachable from any network namespace that shares the file system, so this is how a host locked in
 * a loopback-only namespace reaches a scripted model served on this process's loopback.
 */
final class UnixSocketBridge implements AutoCloseable {
    /** Longest socket path the kernel accepts ({@code sun_path} is 108 bytes with its terminator). */
    static final int MAX_PATH_BYTES = 107;

    private final Path socket;
    private final int targetPort;
    private final ServerSocketChannel server;
    private final List<SocketChannel> open = new ArrayList<>();
    private final Thread acceptor;

    private UnixSocketBridge(Path socket, int targetPort) throws IOException {
        if (socket.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_PATH_BYTES) {
            throw new IOException("socket path over " + MAX_PATH_BYTES + " bytes: " + socket);
        }
        this.socket = socket;
        this.targetPort = targetPort;
        Files.deleteIfExists(socket);
        this.server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        this.acceptor = new Thread(this::acceptLoop, "unix-bridge-accept");
        acceptor.setDaemon(true);
    }

    /** Starts forwarding {@code socket} to {@code 127.0.0.1:targetPort}. */
    static UnixSocketBridge start(Path socket, int targetPort) throws IOException {
        UnixSocketBridge bridge = new UnixSocketBridge(socket, targetPort);
        bridge.acceptor.start();
        return bridge;
    }

    Path socket() {
        return socket;
    }

    @Override
    public void close() throws IOException {
        server.close();
        synchronized (open) {
            for (SocketChannel c : open) {
                c.close();
            }
            open.clear();
        }
        Files.deleteIfExists(socket);
    }

    private void acceptLoop() {
        while (server.isOpen()) {
            SocketChannel client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return;
            }
            try {
                SocketChannel upstream = SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort));
                track(client);
                track(upstream);
                pump(client, upstream, "unix-bridge-up");
                pump(upstream, client, "unix-bridge-down");
            } catch (IOException e) {
                closeQuietly(client);
            }
        }
    }

    private void track(SocketChannel channel) {
        synchronized (open) {
            open.add(channel);
        }
    }

    /** Copies {@code from} to {@code to} until end of stream, then half-closes {@code to}. */
    private static void pump(SocketChannel from, SocketChannel to, String name) {
        Thread t = new Thread(() -> {
            ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
            try {
                while (from.read(buffer) >= 0) {
                    buffer.flip();
                    while (buffer.hasRemaining()) {
                        to.write(buffer);
                    }
                    buffer.clear();
                }
                to.shutdownOutput();
            } catch (IOException e) {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, name);
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // already gone
        }
    }
}
