/**
 * Kilo Code's setup: OpenCode's bridge plugin in Kilo's directories, behind Kilo's plugin gate.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): KiloPluginGate, KiloSetup.
 */
package dev.agentwarden.install.kilo;
