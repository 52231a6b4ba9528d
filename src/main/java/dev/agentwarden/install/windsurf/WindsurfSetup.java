package dev.agentwarden.install.windsurf;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.windsurf.WindsurfHost;
import dev.agentwarden.install.HooksJsonFile;
import dev.agentwarden.install.HostSetup;
import java.util.Map;

/** Windsurf's setup: its {@code hooks.json} per scope, every entry showing its output. */
public final class WindsurfSetup {
    private WindsurfSetup() {
    }

    /** {@code show_output: true} on every entry. */
    private static final class ShowOutput implements HooksJsonFile.EntryExtras {
        @Override
        public Map<String, Object> of(String nativeEvent) {
            return Map.of("show_output", Boolean.TRUE);
        }
    }

    private static final HooksJsonFile.EntryExtras EXTRAS = new ShowOutput();

    public static final HostSetup WINDSURF = new HostSetup(WindsurfHost.WINDSURF,
            Map.of(Host.Scope.PROJECT, new HooksJsonFile("windsurf", ".windsurf/hooks.json", ".windsurf", "hooks.json",
                            false, Map.of(), EXTRAS),
                    Host.Scope.USER, new HooksJsonFile("windsurf", "~/.codeium/windsurf/hooks.json", ".codeium/windsurf",
                            "hooks.json", true, Map.of(), EXTRAS)),
            Host.Scope.PROJECT);
}
