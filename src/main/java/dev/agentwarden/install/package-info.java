/**
 * Setup: how Warden's hooks get into each host's settings, and how {@code install}, {@code uninstall},
 * {@code doctor} and {@code serve} read them ({@code protect-warden} knows where they lie from each host's
 * {@link dev.agentwarden.host.Host#setupFiles}, which a test holds to the installers here). One {@link dev.agentwarden.install.HostSetup}
 * per host in {@link dev.agentwarden.install.HostSetups} (the host's runtime record from
 * {@code dev.agentwarden.host}, its {@link dev.agentwarden.install.Installer}s per scope, its trust gate);
 * settings-file splicing that keeps the user's bytes ({@link dev.agentwarden.install.SettingsFile},
 * {@link dev.agentwarden.install.HooksJsonFile}), Warden's own hook files and plugins
 * ({@link dev.agentwarden.install.HookFiles}, {@link dev.agentwarden.install.PluginFile}), and the hook
 * command lines ({@link dev.agentwarden.install.HookCommand}). Each host's setup classes are in
 * {@code install/<name>/}, named for its folder {@code host/<name>/}; a dispatch loads none of them.
 */
package dev.agentwarden.install;
