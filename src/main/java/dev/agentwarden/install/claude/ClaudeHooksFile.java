package dev.agentwarden.install.claude;

import dev.agentwarden.install.HookLauncher;
import dev.agentwarden.install.InstallReport;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.SettingsFile.SettingsException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A {@code hooks} settings file in Claude Code's shape ({@code settings.json}, and Codex's
 * {@code hooks.json}), at one scope, edited by {@link ClaudeSettings}.
 */
public final class ClaudeHooksFile implements Installer {
    private final String host;
    private final String describe;
    private final String dir;
    private final String file;
    private final boolean user;
    private final String homeVariable;
    private final boolean shellWhenNeeded;

    /**
     * @param host         the host id written into each entry's command
     * @param describe     the file as a person knows it
     * @param dir          the directory under the project (or the home directory) holding the file
     * @param file         the file name
     * @param user         under the home directory rather than the project
     * @param homeVariable a variable naming the host's home directory, used instead of
     *                     {@code ~/<dir>} when set; or {@code null}
     */
    public ClaudeHooksFile(String host, String describe, String dir, String file, boolean user, String homeVariable) {
        this(host, describe, dir, file, user, homeVariable, false);
    }

    private ClaudeHooksFile(String host, String describe, String dir, String file, boolean user, String homeVariable,
                            boolean shellWhenNeeded) {
        this.host = host;
        this.describe = describe;
        this.dir = dir;
        this.file = file;
        this.user = user;
        this.homeVariable = homeVariable;
        this.shellWhenNeeded = shellWhenNeeded;
    }

    /**
     * This file, for a host that spawns a hook's command without a shell unless the command holds a
     * shell operator ({@code | & ; < > $} or a backquote), and then runs it with {@code bash -c}:
     * Augment's CLI (auggie 0.36.0). The portable command holds {@code ;} and {@code &&}, so it runs in bash.
     */
    public ClaudeHooksFile shellWhenTheCommandNeedsOne() {
        return new ClaudeHooksFile(host, describe, dir, file, user, homeVariable, true);
    }

    @Override
    public boolean commandRunsInAShell() {
        return shellWhenNeeded;
    }

    @Override
    public Path settingsFile(Path projectRoot, Map<String, String> env) {
        if (!user) {
            return projectRoot.resolve(dir).resolve(file);
        }
        String home = homeVariable == null ? null : env.get(homeVariable);
        return home != null && !home.isEmpty() ? Path.of(home).resolve(file)
                : Installer.userHome(env).resolve(dir).resolve(file);
    }

    @Override
    public String describe() {
        return describe;
    }

    @Override
    public byte[] install(byte[] document, HookLauncher launcher, List<Binding> bindings) throws SettingsException {
        return ClaudeSettings.install(document, launcher, host, bindings);
    }

    @Override
    public byte[] uninstall(byte[] document) {
        return ClaudeSettings.uninstall(document, host);
    }

    @Override
    public List<String> installedEvents(byte[] document) {
        return ClaudeSettings.installedEvents(document, host);
    }

    @Override
    public List<Installer.Entry> entries(byte[] document) {
        return ClaudeSettings.wardenEntries(document, host);
    }

    @Override
    public List<String> changeReport(byte[] before, byte[] after) {
        List<Installer.Entry> entries = ClaudeSettings.wardenEntries(after, host);
        return InstallReport.between(ClaudeSettings.wardenEntries(before, host), entries).perEntry(entries);
    }

    @Override
    public List<String> lookalikes(byte[] document) {
        return ClaudeSettings.lookalikes(document, host);
    }
}
