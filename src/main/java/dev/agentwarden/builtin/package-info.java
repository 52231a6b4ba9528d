/**
 * The built-in concerns a manifest names as {@code builtin:<name>}, registered in {@code Builtins},
 * each described by a {@code BuiltinDescriptor}. A package of its own beside {@code concern}: the
 * concern model names no built-in.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): BlockNoVerify,
 * BuiltinDescriptor, Builtins, GitOptionTable, HookBypass, ProtectWarden, SpawnGuardConcern,
 * SubagentLedgerConcern, WardenSelfChange.
 */
package dev.agentwarden.builtin;
