package dev.agentwarden.install.copilot;

import dev.agentwarden.install.Installer;
import java.nio.file.Path;
import java.util.Map;

/** Copilot CLI's home directory: {@code $COPILOT_HOME}, else {@code ~/.copilot}. */
final class CopilotHome {
    private CopilotHome() {
    }

    static Path of(Map<String, String> env) {
        String home = env.get("COPILOT_HOME");
        return home != null && !home.isEmpty() ? Path.of(home) : Installer.userHome(env).resolve(".copilot");
    }
}
