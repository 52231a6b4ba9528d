package dev.agentwarden.install;

import dev.agentwarden.host.HostAdapter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * An installer whose hooks are files of their own, one per native event, in a hooks directory
 * (Cline's {@code .clinerules/hooks/PreToolUse}), rather than entries in one settings document.
 * {@link HookFiles} writes and removes them; the document methods of {@link Installer} do not apply
 * and refuse ({@code install} throws), so that nothing edits such a directory as if it were a JSON file.
 */
public interface HookFileInstaller extends Installer {

    /** The directory holding the hook files. */
    Path hooksDirectory(Path projectRoot, Map<String, String> env);

    /**
     * The directory below which no path component may be a symbolic link: the project root for a
     * project's hooks, the directory that holds the host's own directory for a user's.
     */
    Path anchor(Path projectRoot, Map<String, String> env);

    /** Whether the hooks directory must lie inside the project. */
    boolean inProject();

    /** Every native event the host runs a file for, as the file's name. */
    List<String> events();

    /**
     * The files that deliver {@code nativeEvent}: the one named after it, except for an event the host
     * runs no file of its own for, which arrives through the files of the events it refines
     * ({@link HostAdapter#refinedNativeEvent}).
     */
    default List<String> filesFor(String nativeEvent) {
        return List.of(nativeEvent);
    }

    /** Exactly the bytes Warden writes for {@code nativeEvent}, running {@code launcher}. */
    byte[] content(HookLauncher launcher, String nativeEvent);

    /**
     * The launcher a file named for {@code nativeEvent} runs when the file is exactly what
     * {@link #content} writes for that launcher; {@code null} for any other file (the user's own).
     */
    HookLauncher launcherOf(byte[] file, String nativeEvent);

    @Override
    default Path settingsFile(Path projectRoot, Map<String, String> env) {
        return hooksDirectory(projectRoot, env);
    }

    /** A caller's mistake: such a host's hooks go through {@link HookFiles}. */
    @Override
    default byte[] install(byte[] document, HookLauncher launcher, List<Binding> bindings) {
        throw new IllegalStateException(describe() + " holds hook files, not a settings document");
    }

    @Override
    default byte[] uninstall(byte[] document) {
        return document;
    }

    @Override
    default List<String> installedEvents(byte[] document) {
        return List.of();
    }

    @Override
    default List<String> changeReport(byte[] before, byte[] after) {
        return List.of();
    }

    @Override
    default List<String> lookalikes(byte[] document) {
        return List.of();
    }
}
