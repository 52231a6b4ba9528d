package dev.agentwarden.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The Unix-socket bridge into the scripted model, and the sandbox's namespace check, without a host. */
class UnixSocketBridgeTest {
    private static final ModelScript SCRIPT = ModelScript.of(Turn.text("HELLO-THROUGH-BRIDGE"));

    @Test
    void bridge_headRoot_reachesTheServerAndGets404(@TempDir Path dir) throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(new AnthropicMessagesApi(), SCRIPT);
             UnixSocketBridge bridge = UnixSocketBridge.start(dir.resolve("m.sock"), server.port())) {
            String response = exchange(bridge.socket(), "HEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");

            assertThat(response).startsWith("HTTP/1.1 404");
            assertThat(server.exchanges()).singleElement().satisfies(e -> assertThat(e.method()).isEqualTo("HEAD"));
        }
    }

    @Test
    void bridge_post_streamsTheScriptedTurnBack(@TempDir Path dir) throws Exception {
        String body = Json.write(Map.of("model", "m", "tools", List.of(Map.of("name", "Bash")),
                "messages", List.of(Map.of("role", "user", "content", "hi"))));
        try (ScriptedModelServer server = ScriptedModelServer.start(new AnthropicMessagesApi(), SCRIPT);
             UnixSocketBridge bridge = UnixSocketBridge.start(dir.resolve("m.sock"), server.port())) {
            String response = exchange(bridge.socket(), "POST /v1/messages?beta=true HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nConnection: close\r\nContent-Length: "
                    + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body);

            assertThat(response).startsWith("HTTP/1.1 200").contains("event: message_start")
                    .contains("HELLO-THROUGH-BRIDGE").contains("event: message_stop");
            assertThat(server.steps()).hasSize(1);
        }
    }

    @Test
    void start_socketPathOverTheKernelLimit_isRefused(@TempDir Path dir) {
        Path tooLong = dir.resolve("x".repeat(UnixSocketBridge.MAX_PATH_BYTES));

        assertThatThrownBy(() -> UnixSocketBridge.start(tooLong, 1)).isInstanceOf(IOException.class)
                .hasMessageContaining("socket path over " + UnixSocketBridge.MAX_PATH_BYTES + " bytes");
    }

    static Stream<Arguments> ipLinkOutputs() {
        return Stream.of(
                Arguments.of("1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN\\    link/loopback 00:00",
                        List.of("lo")),
                Arguments.of("1: lo: <LOOPBACK> mtu 65536\n2: eth0@if7: <BROADCAST,UP> mtu 1500\n", List.of("lo", "eth0")),
                Arguments.of("", List.of()));
    }

    @ParameterizedTest
    @MethodSource("ipLinkOutputs")
    void interfaces_readsNamesFromIpLinkOutput(String output, List<String> names) {
        assertThat(LoopbackSandbox.interfaces(output)).isEqualTo(names);
    }

    /** Sends {@code request} through the socket and reads until the server closes. */
    private static String exchange(Path socket, String request) throws IOException {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(socket));
            ByteBuffer out = ByteBuffer.wrap(request.getBytes(StandardCharsets.UTF_8));
            while (out.hasRemaining()) {
                channel.write(out);
            }
            ByteArrayOutputStream in = new ByteArrayOutputStream();
            ByteBuffer buffer = ByteBuffer.allocate(8192);
            while (channel.read(buffer) >= 0) {
                in.write(buffer.array(), 0, buffer.position());
                buffer.clear();
            }
            return in.toString(StandardCharsets.UTF_8);
        }
    }
}
