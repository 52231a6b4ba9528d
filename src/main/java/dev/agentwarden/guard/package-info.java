/**
 * The shadow spawn guard: derives a subagent spawn's depth and fan-out from the ledger and decides on
 * it ({@code SpawnGuard}).
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): Candidate, GuardSettings,
 * SpawnGuard.
 */
package dev.agentwarden.guard;
