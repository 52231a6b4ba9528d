package dev.agentwarden.install.claude;

import dev.agentwarden.install.HookLauncher;
import dev.agentwarden.host.claude.ClaudeHosts;
import dev.agentwarden.install.InstallReport;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.SettingsFile.SettingsException;
import dev.agentwarden.json.JsonSpans;
import dev.agentwarden.json.JsonSplice;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Claude Code's managed (policy) settings on Linux, {@code /etc/claude-code/managed-settings.json}: the
 * same {@code hooks} shape as the user's settings, edited by {@link ClaudeSettings}, at a path fixed by
 * the host (no environment variable or project moves it). Claude Code runs managed hooks even when a
 * project or user sets {@code disableAllHooks: true}; only {@code disableAllHooks} in this file turns
 * them off. {@code allowManagedHooksOnly: true} here makes it ignore user, project and local hooks
 * (measured on 2.1.197; docs/managed-install.md).
 */
final class ClaudeManagedFile implements Installer {
    /** Where Claude Code reads managed settings on Linux. */
    public static final Path FILE = Path.of("/etc/claude-code/managed-settings.json");

    /** The member that makes Claude Code run managed hooks alone. */
    static final String MANAGED_ONLY = "allowManagedHooksOnly";

    @Override
    public Path settingsFile(Path projectRoot, Map<String, String> env) {
        return FILE;
    }

    @Override
    public String describe() {
        return FILE.toString();
    }

    @Override
    public byte[] install(byte[] document, HookLauncher launcher, List<Binding> bindings) throws SettingsException {
        return ClaudeSettings.install(document, launcher, ClaudeHosts.CLAUDE_ID, bindings);
    }

    @Override
    public byte[] uninstall(byte[] document) {
        return ClaudeSettings.uninstall(document, ClaudeHosts.CLAUDE_ID);
    }

    @Override
    public List<String> installedEvents(byte[] document) {
        return ClaudeSettings.installedEvents(document, ClaudeHosts.CLAUDE_ID);
    }

    @Override
    public List<Installer.Entry> entries(byte[] document) {
        return ClaudeSettings.wardenEntries(document, ClaudeHosts.CLAUDE_ID);
    }

    @Override
    public List<String> changeReport(byte[] before, byte[] after) {
        List<Installer.Entry> entries = ClaudeSettings.wardenEntries(after, ClaudeHosts.CLAUDE_ID);
        return InstallReport.between(ClaudeSettings.wardenEntries(before, ClaudeHosts.CLAUDE_ID), entries).perEntry(entries);
    }

    @Override
    public List<String> lookalikes(byte[] document) {
        return ClaudeSettings.lookalikes(document, ClaudeHosts.CLAUDE_ID);
    }

    /**
     * {@code document} with {@code "allowManagedHooksOnly": true} at the end of the top-level object, or
     * unchanged when it is already there and {@code true}.
     *
     * @throws SettingsException when it is there with another value (an administrator's choice, not
     *                           Warden's to overrule) or named twice, or the document is not an object
     */
    @Override
    public byte[] managedHooksOnly(byte[] document) throws SettingsException {
        JsonSpans.Value root = JsonSpans.parse(document);
        if (root.kind() != JsonSpans.Kind.OBJECT) {
            throw new SettingsException("settings_not_object", FILE + " is not a JSON object; it was left unchanged");
        }
        List<JsonSpans.Member> found = root.named(MANAGED_ONLY);
        if (found.isEmpty()) {
            return JsonSplice.appendMember(document, root, MANAGED_ONLY, Boolean.TRUE);
        }
        if (found.size() == 1 && isTrue(document, found.get(0).value())) {
            return document;
        }
        throw new SettingsException("settings_managed_only", "\"" + MANAGED_ONLY + "\" in " + FILE
                + " is already set to something other than one true; change it by hand. The file was left unchanged.");
    }

    /** {@code document} without a single {@code "allowManagedHooksOnly": true} member; unchanged when there is none. */
    @Override
    public byte[] withoutManagedHooksOnly(byte[] document) {
        JsonSpans.Value root = JsonSpans.parse(document);
        if (root.kind() != JsonSpans.Kind.OBJECT) {
            return document;
        }
        List<JsonSpans.Member> members = root.members();
        int index = -1;
        for (int i = 0; i < members.size(); i++) {
            if (members.get(i).key().equals(MANAGED_ONLY)) {
                if (index >= 0 || !isTrue(document, members.get(i).value())) {
                    return document;
                }
                index = i;
            }
        }
        return index < 0 ? document : JsonSplice.remove(document, root, index);
    }

    /** Whether {@code document} sets {@code allowManagedHooksOnly: true}. */
    public static boolean setsManagedHooksOnly(byte[] document) {
        JsonSpans.Value root = JsonSpans.parse(document);
        if (root.kind() != JsonSpans.Kind.OBJECT) {
            return false;
        }
        List<JsonSpans.Member> found = root.named(MANAGED_ONLY);
        return found.size() == 1 && isTrue(document, found.get(0).value());
    }

    private static boolean isTrue(byte[] document, JsonSpans.Value v) {
        return v.kind() == JsonSpans.Kind.LITERAL && v.end() - v.start() == 4
                && new String(document, v.start(), 4, java.nio.charset.StandardCharsets.US_ASCII).equals("true");
    }
}
