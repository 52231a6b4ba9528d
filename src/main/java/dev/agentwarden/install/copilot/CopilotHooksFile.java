package dev.agentwarden.install.copilot;

import dev.agentwarden.install.HookLauncher;
import dev.agentwarden.install.InstallReport;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.SettingsFile.SettingsException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Warden's own hooks file for Copilot CLI: {@code .github/hooks/warden.json} in the project,
 * {@code $COPILOT_HOME/hooks/warden.json} (default {@code ~/.copilot/hooks/warden.json}) for the
 * user, or {@code /etc/github-copilot/policy.d/warden.json} for the machine ({@link #POLICY_DIR}: Copilot
 * 1.0.102 loads every {@code *.json} there as policy hooks, in the same format, whatever the folder's trust
 * and even when a project or user sets {@code disableAllHooks}; measured, docs/managed-install.md). Copilot reads every {@code *.json} in those folders, so Warden's entries never share a file
 * with the user's; an entry the user adds to it stays all the same ({@link CopilotHooks}).
 * Only the native (camelCase) event names are written: the PascalCase names Copilot also fires
 * would run each hook twice.
 */
final class CopilotHooksFile implements Installer {
    static final String FILE = "warden.json";

    /** Where Copilot CLI reads machine-wide policy hook files on Linux. */
    public static final Path POLICY_DIR = Path.of("/etc/github-copilot/policy.d");

    private final boolean user;
    private final boolean managed;

    CopilotHooksFile(boolean user) {
        this(user, false);
    }

    private CopilotHooksFile(boolean user, boolean managed) {
        this.user = user;
        this.managed = managed;
    }

    /** The machine's policy hooks file, {@code /etc/github-copilot/policy.d/warden.json}. */
    static CopilotHooksFile policy() {
        return new CopilotHooksFile(true, true);
    }

    /** Copilot CLI runs an entry's {@code bash} field with bash. */
    @Override
    public boolean commandRunsInAShell() {
        return true;
    }

    @Override
    public Path settingsFile(Path projectRoot, Map<String, String> env) {
        if (managed) {
            return POLICY_DIR.resolve(FILE);
        }
        return user ? CopilotHome.of(env).resolve("hooks").resolve(FILE)
                : projectRoot.resolve(".github").resolve("hooks").resolve(FILE);
    }

    @Override
    public String describe() {
        if (managed) {
            return POLICY_DIR.resolve(FILE).toString();
        }
        return user ? "$COPILOT_HOME/hooks/" + FILE : ".github/hooks/" + FILE;
    }

    @Override
    public boolean writes(String nativeEvent) {
        return !nativeEvent.isEmpty() && Character.isLowerCase(nativeEvent.charAt(0));
    }

    @Override
    public byte[] install(byte[] document, HookLauncher launcher, List<Binding> bindings) throws SettingsException {
        return CopilotHooks.install(document, launcher, bindings);
    }

    @Override
    public byte[] uninstall(byte[] document) {
        return CopilotHooks.uninstall(document);
    }

    @Override
    public List<String> installedEvents(byte[] document) {
        return CopilotHooks.installedEvents(document);
    }

    @Override
    public List<Installer.Entry> entries(byte[] document) {
        return CopilotHooks.entries(document);
    }

    @Override
    public List<String> changeReport(byte[] before, byte[] after) {
        return InstallReport.between(CopilotHooks.entries(before), CopilotHooks.entries(after))
                .perEntry(CopilotHooks.entries(after));
    }

    @Override
    public List<String> lookalikes(byte[] document) {
        return CopilotHooks.lookalikes(document);
    }
}
