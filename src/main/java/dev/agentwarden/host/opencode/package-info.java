/**
 * OpenCode: the bridge plugin install writes into the host's plugin directory
 * ({@code warden-bridge.js}), the adapter for the envelope it sends, and the host record.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): OpenCodeAdapter, OpenCodeHost,
 * OpenCodePlugin.
 */
package dev.agentwarden.host.opencode;
