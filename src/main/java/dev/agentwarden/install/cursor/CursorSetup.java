package dev.agentwarden.install.cursor;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.cursor.CursorHost;
import dev.agentwarden.install.HooksJsonFile;
import dev.agentwarden.install.HostSetup;
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

    public static final HostSetup CURSOR = new HostSetup(CursorHost.CURSOR,
            Map.of(Host.Scope.PROJECT, new HooksJsonFile("cursor", ".cursor/hooks.json", ".cursor", "hooks.json", false,
                            Map.of("version", 1L), EXTRAS),
                    Host.Scope.USER, new HooksJsonFile("cursor", "~/.cursor/hooks.json", ".cursor", "hooks.json", true,
                            Map.of("version", 1L), EXTRAS),
                    Host.Scope.MANAGED, new CursorEnterpriseHooks(new HooksJsonFile("cursor", "/etc/cursor/hooks.json",
                            ".cursor", "hooks.json", true, Map.of("version", 1L), EXTRAS))),
            Host.Scope.PROJECT);
}
