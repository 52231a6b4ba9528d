/**
 * OpenCode's setup: Warden's bridge plugin, for OpenCode and every host that loads OpenCode plugins.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): OpenCodePlugin, OpenCodeSetup.
 */
package dev.agentwarden.install.opencode;
