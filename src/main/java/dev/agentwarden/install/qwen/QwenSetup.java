package dev.agentwarden.install.qwen;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.qwen.QwenHost;
import dev.agentwarden.install.HostSetup;
import dev.agentwarden.install.claude.ClaudeHooksFile;
import java.util.Map;

/** Qwen Code's setup: Claude-shaped {@code settings.json} in the project's {@code .qwen/} or in {@code $QWEN_HOME}. */
public final class QwenSetup {
    private QwenSetup() {
    }

    public static final HostSetup QWEN = new HostSetup(QwenHost.QWEN,
            Map.of(Host.Scope.PROJECT, new ClaudeHooksFile("qwen", ".qwen/settings.json", ".qwen", "settings.json",
                            false, null),
                    Host.Scope.USER, new ClaudeHooksFile("qwen", "~/.qwen/settings.json", ".qwen", "settings.json",
                            true, "QWEN_HOME")),
            Host.Scope.PROJECT)
            .runningHooksInAShell();
}
