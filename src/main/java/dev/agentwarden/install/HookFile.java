package dev.agentwarden.install;

import dev.agentwarden.install.SettingsFile.Edit;
import dev.agentwarden.install.SettingsFile.SettingsException;
import java.nio.file.Path;
import java.util.List;

/**
 * The file {@code install} and {@code uninstall} change for one host and scope: a settings
 * document shared with the user ({@link SettingsFile}), or a file of Warden's own ({@link PluginFile}).
 */
public interface HookFile {
    /** The current content; an absent file reads as the host's empty document. */
    byte[] read() throws SettingsException;

    /** The bytes {@code edit} would write, with every check an update makes; nothing is written. */
    byte[] preview(Edit edit) throws SettingsException;

    /** Applies {@code edit} and writes the result; returns the new content. */
    byte[] update(Edit edit) throws SettingsException;

    /** As {@link #update}, for an uninstall: what install created and this leaves empty is removed, into {@code removed}. */
    byte[] updateAndTidy(Edit edit, List<Path> removed) throws SettingsException;

    /** The file as the host finds it (links not resolved). */
    Path path();

    /** The path, as a person reads it. */
    String describe() throws SettingsException;
}
