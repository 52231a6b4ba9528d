/**
 * Claude Code and Cowork: the adapter, the {@code settings.json} installer (command and HTTP hooks), the
 * managed-settings installer ({@code /etc/claude-code/managed-settings.json}), payload templates and training payloads.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): ClaudeAdapter, ClaudeHosts,
 * ClaudePayloadTemplate, ClaudeTraining.
 */
package dev.agentwarden.host.claude;
