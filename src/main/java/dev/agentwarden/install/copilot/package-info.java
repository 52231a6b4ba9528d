/**
 * Copilot CLI's setup: its hook files per scope, the policy directory's file, and its folder trust.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): CopilotFolderTrust,
 * CopilotHome, CopilotHooksFile, CopilotSetup.
 */
package dev.agentwarden.install.copilot;
