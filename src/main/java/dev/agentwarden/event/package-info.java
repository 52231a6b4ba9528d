/**
 * The one normalized event ({@code HookEvent}) every concern reads, the canonical event vocabulary
 * ({@code EventName}) and the tool kinds host adapters normalize tool names to.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): EventName, HookEvent,
 * McpToolName, ToolKind, WorkspaceRoot.
 */
package dev.agentwarden.event;
