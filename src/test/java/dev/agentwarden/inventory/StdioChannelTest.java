package dev.agentwarden.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A stdio server that dies at start is reported by what it said and its exit status, not by the broken pipe. */
class StdioChannelTest {
    @Test
    void aServerThatExitedBeforeTheFirstMessage_isReportedByItsStderrAndExitStatus(@TempDir Path dir) throws Exception {
        McpServerConfig config = new McpServerConfig("claude", "dies", "test", false, McpServerConfig.STDIO, "/bin/sh",
                List.of("-c", "echo 'boom: no config' >&2; exit 3"), Map.of(), null, null, Map.of());
        StdioChannel channel = StdioChannel.start(config, dir);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!channel.exitsWithinGrace()) {
                assertThat(System.nanoTime()).as("the server exits").isLessThan(deadline);
            }

            channel.send(Map.of("jsonrpc", "2.0", "id", 1, "method", "initialize"));

            assertThatThrownBy(() -> channel.receive(System.nanoTime() + TimeUnit.SECONDS.toNanos(30)))
                    .isInstanceOf(McpFailure.class)
                    .hasMessageContaining("server closed its output (exit 3)")
                    .hasMessageContaining("boom: no config");
        } finally {
            channel.close();
        }
    }
}
