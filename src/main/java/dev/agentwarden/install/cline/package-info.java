/**
 * Cline's setup: Warden's hook files, one per event, in the project's or the user's hooks directory.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): ClineHookFiles, ClineSetup.
 */
package dev.agentwarden.install.cline;
