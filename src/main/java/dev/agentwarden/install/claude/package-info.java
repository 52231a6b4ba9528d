/**
 * Claude Code's and Cowork's setup: settings per scope (project, local, user), the managed settings file, the
 * {@code warden serve} HTTP hook block, and the Claude-shaped {@code hooks} editing other hosts reuse.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): ClaudeHooksFile,
 * ClaudeManagedFile, ClaudeServeHooks, ClaudeSetups.
 */
package dev.agentwarden.install.claude;
