/**
 * Setup: how Warden's hooks get into each host's settings, and how {@code install}, {@code uninstall},
 * {@code doctor}, {@code serve} and {@code protect-warden} read them. One {@link dev.agentwarden.install.HostSetup}
 * per host in {@link dev.agentwarden.install.HostSetups} (the host's runtime record from
 * {@code dev.agentwarden.host}, its {@link dev.agentwarden.install.Installer}s per scope, its trust gate);
 * settings-file splicing that keeps the user's bytes ({@link dev.agentwarden.install.SettingsFile},
 * {@link dev.agentwarden.install.HooksJsonFile}), Warden's own hook files and plugins
 * ({@link dev.agentwarden.install.HookFiles}, {@link dev.agentwarden.install.PluginFile}), and the hook
 * command lines ({@link dev.agentwarden.install.HookCommand}). Each host's setup classes are in
 * {@code install/<name>/}, named for its folder {@code host/<name>/}; a dispatch loads none of them.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): HookFileInstaller,
 * HooksJsonFile, HostSetup, HostSetups, HostTrustGate, Installer, SettingsFile.
 */
package dev.agentwarden.install;
