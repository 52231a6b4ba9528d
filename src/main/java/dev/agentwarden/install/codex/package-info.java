/**
 * Codex's setup: Claude-shaped {@code hooks.json} per scope, the managed requirements file, and its hook review.
 */
package dev.agentwarden.install.codex;
