/**
 * Claude Code's and Cowork's setup: settings per scope (project, local, user), the managed settings file, the
 * {@code warden serve} HTTP hook block, and the Claude-shaped {@code hooks} editing other hosts reuse.
 */
package dev.agentwarden.install.claude;
