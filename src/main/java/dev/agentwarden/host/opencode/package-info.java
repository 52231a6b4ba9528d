/**
 * OpenCode: the bridge plugin install writes into the host's plugin directory
 * ({@code warden-bridge.js}), the adapter for the envelope it sends, and the host record; a fork
 * that loads the same plugins (Kilo Code) is {@code OpenCodeHost.pluginHost} of its own
 * {@code PluginHostFacts}.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): OpenCodeAdapter, OpenCodeHost,
 * PluginHostFacts.
 */
package dev.agentwarden.host.opencode;
