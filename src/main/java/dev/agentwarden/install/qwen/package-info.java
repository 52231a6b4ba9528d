/**
 * Qwen Code's setup: Claude-shaped settings per scope.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): QwenSetup.
 */
package dev.agentwarden.install.qwen;
