/**
 * The subagent lifecycle ledger: hash-chained JSONL lines under {@code .warden/state/}, written under a
 * lock and never through a link, and the open-subagent set it derives.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): AgentRef, ChainHead,
 * DurationText, LedgerException, LedgerLine, LedgerLock, LedgerPaths, LedgerSettings, LedgerStore,
 * OpenRecord, OpenSet, ReturnEnvelope, Spool, SubagentFields, SubagentLedger, TokenShape, UtcTime.
 */
package dev.agentwarden.ledger;
