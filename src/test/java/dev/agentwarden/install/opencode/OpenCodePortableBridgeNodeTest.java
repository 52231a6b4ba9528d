package dev.agentwarden.install.opencode;

import dev.agentwarden.testing.WardenProcess;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.opencode.OpenCodeHost;
import dev.agentwarden.install.HookCommand;
import dev.agentwarden.install.HookLauncher;
import dev.agentwarden.install.Installer.Binding;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.opencode.OpenCodeSetup;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A project's bridge (committed): no path of this machine in it; run by node, it finds {@code warden}
 * on PATH at each callback, and where there is none refuses tool calls and prompts by throwing
 * with what to install ({@code --if-missing block}), or lets them through ({@code allow}).
 */
class OpenCodePortableBridgeNodeTest {
    /** Calls two refusable callbacks and one that is not; prints what each threw (or null) as JSON. */
    private static final String HARNESS = String.join("\n",
            "const { WardenBridge } = await import(process.argv[2]);",
            "const hooks = await WardenBridge({ directory: process.cwd(), client: {} });",
            "const out = {};",
            "const call = async (name, f) => { try { await f(); out[name] = null; } catch (e) { out[name] = e.message; } };",
            "await call('before', () => hooks['tool.execute.before']({ tool: 'bash', sessionID: 's1', callID: 'c1' },"
                    + " { args: { command: 'rm -rf build' } }));",
            "await call('chat', () => hooks['chat.message']({ sessionID: 's1' }, { message: {}, parts: [] }));",
            "await call('after', () => hooks['tool.execute.after']({ tool: 'bash', sessionID: 's1', callID: 'c1' },"
                    + " { output: 'ok' }));",
            "process.stdout.write(JSON.stringify(out));",
            "");

    @TempDir
    Path dir;

    private final Installer plugin = OpenCodeSetup.OPENCODE.installer(Host.Scope.PROJECT);
    private final List<Binding> bound = List.of(new Binding("tool.execute.before", "*"),
            new Binding("tool.execute.after", "*"), new Binding("chat.message", null));

    @Test
    void projectBridge_namesNoPathOfThisMachine_andIsRecognised() throws Exception {
        byte[] bridge = plugin.install(new byte[0], HookLauncher.portable(HookCommand.IfMissing.BLOCK), bound);
        String text = new String(bridge, StandardCharsets.UTF_8);

        assertThat(text).contains("const LAUNCHER = null;").contains("const IF_MISSING = \"block\";")
                .doesNotContain("/bin/warden\"", "/home/", ".cache");
        assertThat(plugin.installedEvents(bridge)).containsExactly("tool.execute.before", "tool.execute.after", "chat.message");
        assertThat(plugin.uninstall(bridge)).isEmpty();
    }

    @Test
    void wardenMissing_block_throwsTheInstallLineOnToolCallsAndPrompts() throws Exception {
        Map<String, Object> thrown = run(HookCommand.IfMissing.BLOCK, emptyPath());

        assertThat((String) thrown.get("before")).startsWith("[warden] warden is not installed on this machine")
                .contains("npm install -g agent-warden");
        assertThat((String) thrown.get("chat")).contains("npm install -g agent-warden");
        assertThat(thrown.get("after")).as("a tool result cannot be refused").isNull();
    }

    @Test
    void wardenMissing_allow_letsThemThrough() throws Exception {
        Map<String, Object> thrown = run(HookCommand.IfMissing.ALLOW, emptyPath());

        assertThat(thrown.get("before")).isNull();
        assertThat(thrown.get("chat")).isNull();
    }

    @Test
    void wardenOnPath_itsDenyIsThrown() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path warden = bin.resolve("warden");
        WardenProcess.writeScript(warden, "#!/bin/sh\ncat >/dev/null\n"
                + "[ \"$5\" = tool.execute.before ] && echo '{\"decision\":\"deny\",\"reason\":\"[warden] DENY from PATH\"}'\nexit 0\n", "rwx------");

        Map<String, Object> thrown = run(HookCommand.IfMissing.BLOCK, bin + ":" + emptyPath());

        assertThat(thrown.get("before")).isEqualTo("[warden] DENY from PATH");
        assertThat(thrown.get("chat")).isNull();
    }

    private String emptyPath() throws IOException {
        return Files.createDirectories(dir.resolve("empty")) + ":/usr/bin:/bin";
    }

    private Map<String, Object> run(HookCommand.IfMissing mode, String path) throws Exception {
        Path node = Path.of("/usr/bin/node");
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, "node"))) {
                node = Path.of(d, "node");
                break;
            }
        }
        Assumptions.assumeTrue(Files.isExecutable(node), "node is not on PATH: the bridge's node tests need it");
        Path bridge = dir.resolve("bridge-" + mode.wire() + ".mjs");
        Files.write(bridge, plugin.install(new byte[0], HookLauncher.portable(mode), bound));
        Path harness = dir.resolve("harness.mjs");
        Files.writeString(harness, HARNESS);
        ProcessBuilder pb = new ProcessBuilder(node.toString(), harness.toString(), bridge.toUri().toString())
                .directory(dir.toFile());
        pb.environment().put("PATH", path);
        pb.environment().remove("WARDEN_FAIL_MODE");
        pb.redirectError(dir.resolve("stderr.txt").toFile());
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("stderr.txt"))).isZero();
        return Json.parseObject(new String(out, StandardCharsets.UTF_8));
    }
}
