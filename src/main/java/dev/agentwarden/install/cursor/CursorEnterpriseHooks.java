package dev.agentwarden.install.cursor;

import dev.agentwarden.install.HooksJsonFile;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.SettingsFile.SettingsException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Cursor's enterprise hooks on Linux, {@code /etc/cursor/hooks.json}: the same {@code {"version": 1, "hooks": …}}
 * format as the project's and user's {@code hooks.json}, edited by the same {@link HooksJsonFile}, at the path
 * Cursor's published hooks documentation gives for enterprise (machine-wide) hooks. No Cursor binary was available
 * to confirm it (docs/managed-install.md), so only the file writer is tested.
 */
final class CursorEnterpriseHooks implements Installer {
    /** Where Cursor reads enterprise hooks on Linux (published, not measured). */
    static final Path FILE = Path.of("/etc/cursor/hooks.json");

    private final HooksJsonFile format;

    CursorEnterpriseHooks(HooksJsonFile format) {
        this.format = format;
    }

    @Override
    public Path settingsFile(Path projectRoot, Map<String, String> env) {
        return FILE;
    }

    @Override
    public String describe() {
        return FILE.toString();
    }

    @Override
    public byte[] install(byte[] document, String launcher, List<Binding> bindings) throws SettingsException {
        return format.install(document, launcher, bindings);
    }

    @Override
    public byte[] uninstall(byte[] document) {
        return format.uninstall(document);
    }

    @Override
    public List<String> installedEvents(byte[] document) {
        return format.installedEvents(document);
    }

    @Override
    public List<Installer.Entry> entries(byte[] document) {
        return format.entries(document);
    }

    @Override
    public List<String> changeReport(byte[] before, byte[] after) {
        return format.changeReport(before, after);
    }

    @Override
    public List<String> lookalikes(byte[] document) {
        return format.lookalikes(document);
    }
}
