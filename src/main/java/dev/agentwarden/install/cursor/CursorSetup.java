package dev.agentwarden.install.cursor;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.cursor.CursorHost;
import dev.agentwarden.install.AtMachinePath;
import dev.agentwarden.install.HooksJsonFile;
import dev.agentwarden.install.HostSetup;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/** Cursor's setup: its {@code hooks.json} per scope and the enterprise file, with {@code failClosed} per event. */
public final class CursorSetup {
    private CursorSetup() {
    }

    /** Events where a failed hook should refuse the action: those whose output can. */
    static final Set<String> FAIL_CLOSED = Set.of("preToolUse", "beforeShellExecution", "beforeMCPExecution",
            "beforeReadFile", "beforeSubmitPrompt", "subagentStart");

    /** {@code failClosed} per event. */
    private static final class FailClosedExtras implements HooksJsonFile.EntryExtras {
        @Override
        public Map<String, Object> of(String nativeEvent) {
            return Map.of("failClosed", FAIL_CLOSED.contains(nativeEvent));
        }

        @Override
        public boolean failsClosed(String nativeEvent) {
            return FAIL_CLOSED.contains(nativeEvent);
        }
    }

    private static final HooksJsonFile.EntryExtras EXTRAS = new FailClosedExtras();

    /**
     * Cursor's enterprise hooks on Linux: the same {@code {"version": 1, "hooks": …}} format as the project's and
     * user's {@code hooks.json}, at the path Cursor's published hooks documentation gives for enterprise
     * (machine-wide) hooks. No Cursor binary was available to confirm it (docs/managed-install.md), so only the file
     * writer is tested.
     */
    static final Path ENTERPRISE_HOOKS = Path.of("/etc/cursor/hooks.json");

    public static final HostSetup CURSOR = new HostSetup(CursorHost.CURSOR,
            Map.of(Host.Scope.PROJECT, new HooksJsonFile("cursor", ".cursor/hooks.json", ".cursor", "hooks.json", false,
                            Map.of("version", 1L), EXTRAS),
                    Host.Scope.USER, new HooksJsonFile("cursor", "~/.cursor/hooks.json", ".cursor", "hooks.json", true,
                            Map.of("version", 1L), EXTRAS),
                    Host.Scope.MANAGED, new AtMachinePath(ENTERPRISE_HOOKS, new HooksJsonFile("cursor", ENTERPRISE_HOOKS.toString(),
                            ".cursor", "hooks.json", true, Map.of("version", 1L), EXTRAS))),
            Host.Scope.PROJECT);
}
