/**
 * Copilot CLI's setup: its hook files per scope, the policy directory's file, and its folder trust.
 */
package dev.agentwarden.install.copilot;
