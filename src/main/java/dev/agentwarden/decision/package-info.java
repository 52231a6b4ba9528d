/**
 * The decision log: one line per dispatch under {@code .warden/state/decisions/}, drafted while the
 * dispatch runs ({@code DecisionDraft}) and appended once it answered ({@code DecisionLog}).
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): ChainResult, ConcernOutcome,
 * DecisionDraft, DecisionLine, DecisionLog, Emitted.
 */
package dev.agentwarden.decision;
