package dev.agentwarden.install;

import dev.agentwarden.install.SettingsFile.SettingsException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Another installer's file format at one fixed machine-wide path (a host's managed file): where the file lies
 * and how it is named are this class's; every other answer, the defaults of {@link Installer} included, is the
 * format's, so the managed file is written and recognised exactly as the format writes it.
 */
public final class AtMachinePath implements Installer {
    private final Path file;
    private final Installer format;

    public AtMachinePath(Path file, Installer format) {
        this.file = file;
        this.format = format;
    }

    @Override
    public Path settingsFile(Path projectRoot, Map<String, String> env) {
        return file;
    }

    @Override
    public String describe() {
        return file.toString();
    }

    @Override
    public byte[] install(byte[] document, HookLauncher launcher, List<Binding> bindings) throws SettingsException {
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
    public List<Entry> entries(byte[] document) {
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

    @Override
    public boolean ownsWholeFile() {
        return format.ownsWholeFile();
    }

    @Override
    public boolean writesToml() {
        return format.writesToml();
    }

    @Override
    public boolean writes(String nativeEvent) {
        return format.writes(nativeEvent);
    }

    @Override
    public boolean commandRunsInAShell() {
        return format.commandRunsInAShell();
    }

    @Override
    public boolean failsClosedOnError(String nativeEvent) {
        return format.failsClosedOnError(nativeEvent);
    }

    @Override
    public byte[] managedHooksOnly(byte[] document) throws SettingsException {
        return format.managedHooksOnly(document);
    }

    @Override
    public byte[] withoutManagedHooksOnly(byte[] document) {
        return format.withoutManagedHooksOnly(document);
    }
}
