package dev.agentwarden.install.opencode;

import dev.agentwarden.install.SettingsFile.SettingsException;

/**
 * The refusal to overwrite a plugin file Warden did not write. Its own class, so that loading
 * {@link OpenCodePlugin} with the host registry (every dispatch) does not load the settings classes.
 */
final class ForeignPlugin {
    private ForeignPlugin() {
    }

    static void refuse(String file) throws SettingsException {
        throw new SettingsException("plugin_not_wardens", file + " exists and is not the bridge Warden writes"
                + " (edited, or someone else's); it was left unchanged. Move it away and install again.");
    }
}
