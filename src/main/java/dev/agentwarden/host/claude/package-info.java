/**
 * Claude Code and Cowork: the adapter, the {@code settings.json} installer (command and HTTP hooks),
 * payload templates and training payloads.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): ClaudeAdapter,
 * ClaudeHooksFile, ClaudeHosts, ClaudePayloadTemplate, ClaudeServeHooks, ClaudeTraining.
 */
package dev.agentwarden.host.claude;
