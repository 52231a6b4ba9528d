/**
 * Qwen Code's setup: Claude-shaped settings per scope.
 */
package dev.agentwarden.install.qwen;
