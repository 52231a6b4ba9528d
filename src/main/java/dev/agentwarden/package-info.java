/**
 * Agent Warden: the host-side runtime AI coding-agent hosts call on every hook event. {@code Main}
 * sends {@code dispatch} to the hot path and every other command to the CLI.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): Main.
 */
package dev.agentwarden;
