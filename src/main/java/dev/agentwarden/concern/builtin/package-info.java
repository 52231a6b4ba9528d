/**
 * The built-in concerns a manifest names as {@code builtin:<name>}, registered in {@code Builtins}.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): BlockNoVerify, Builtins,
 * GitOptionTable, HookBypass, ProtectWarden, SpawnGuardConcern, SubagentLedgerConcern,
 * WardenSelfChange.
 */
package dev.agentwarden.concern.builtin;
