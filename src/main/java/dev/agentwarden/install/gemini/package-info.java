/**
 * Gemini CLI's setup: Claude-shaped settings per scope, the system settings, and its hook trust.
 */
package dev.agentwarden.install.gemini;
