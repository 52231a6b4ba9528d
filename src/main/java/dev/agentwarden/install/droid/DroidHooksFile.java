package dev.agentwarden.install.droid;

import dev.agentwarden.install.HookLauncher;
import dev.agentwarden.host.droid.DroidHost;
import dev.agentwarden.install.InstallReport;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.SettingsFile.SettingsException;
import dev.agentwarden.install.claude.ClaudeSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Droid's {@code hooks.json} at one scope: Claude's groups keyed by event at the top of the file
 * (Droid ignores a {@code hooks} wrapper there), edited as text by {@link ClaudeSettings} so that
 * every other byte stays as written, and Warden's entries recognised exactly as there.
 */
final class DroidHooksFile implements Installer {
    private static final String DIR = ".factory";
    private static final String FILE = "hooks.json";

    private final boolean user;

    DroidHooksFile(boolean user) {
        this.user = user;
    }

    @Override
    public Path settingsFile(Path projectRoot, Map<String, String> env) {
        return (user ? Installer.userHome(env) : projectRoot).resolve(DIR).resolve(FILE);
    }

    @Override
    public String describe() {
        return user ? "~/.factory/hooks.json" : ".factory/hooks.json";
    }

    @Override
    public byte[] install(byte[] document, HookLauncher launcher, List<Binding> bindings) throws SettingsException {
        return ClaudeSettings.install(document, launcher, DroidHost.ID, bindings, true);
    }

    @Override
    public byte[] uninstall(byte[] document) {
        return ClaudeSettings.uninstall(document, DroidHost.ID, true);
    }

    @Override
    public List<String> installedEvents(byte[] document) {
        return ClaudeSettings.installedEvents(document, DroidHost.ID, true);
    }

    @Override
    public List<Installer.Entry> entries(byte[] document) {
        return ClaudeSettings.wardenEntries(document, DroidHost.ID, true);
    }

    @Override
    public List<String> changeReport(byte[] before, byte[] after) {
        List<Installer.Entry> entries = entries(after);
        return InstallReport.between(entries(before), entries).perEntry(entries);
    }

    @Override
    public List<String> lookalikes(byte[] document) {
        return ClaudeSettings.lookalikes(document, DroidHost.ID, true);
    }
}
