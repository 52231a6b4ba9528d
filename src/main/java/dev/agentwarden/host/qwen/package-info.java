/**
 * Qwen Code: Claude's hook format and adapter with Qwen's dialect ({@code .qwen/settings.json}, its
 * extra events, {@code run_shell_command} and {@code agent} tools).
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): QwenHost.
 */
package dev.agentwarden.host.qwen;
