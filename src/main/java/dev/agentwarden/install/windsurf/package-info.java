/**
 * Windsurf's setup: its {@code hooks.json} per scope.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): WindsurfSetup.
 */
package dev.agentwarden.install.windsurf;
