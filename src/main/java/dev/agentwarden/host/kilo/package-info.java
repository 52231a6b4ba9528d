/**
 * Kilo Code: OpenCode's bridge plugin and adapter ({@code host.opencode}) under Kilo's id and
 * config directories, and the gate Kilo puts in front of plugins ({@link dev.agentwarden.install.kilo.KiloPluginGate}).
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): KiloHost.
 */
package dev.agentwarden.host.kilo;
