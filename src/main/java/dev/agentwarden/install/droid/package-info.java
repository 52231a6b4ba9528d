/**
 * Factory Droid's setup: its {@code hooks.json} per scope and the switches that turn hooks off.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): DroidHooksFile,
 * DroidHooksGate, DroidSetup.
 */
package dev.agentwarden.install.droid;
