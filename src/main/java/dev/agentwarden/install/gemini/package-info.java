/**
 * Gemini CLI's setup: Claude-shaped settings per scope, the system settings, and its hook trust.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): GeminiHookTrust, GeminiSetup,
 * GeminiSystemSettings.
 */
package dev.agentwarden.install.gemini;
