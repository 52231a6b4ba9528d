/**
 * Codex's setup: Claude-shaped {@code hooks.json} per scope, the managed requirements file, and its hook review.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): CodexHookTrust,
 * CodexRequirementsFile, CodexSetup.
 */
package dev.agentwarden.install.codex;
