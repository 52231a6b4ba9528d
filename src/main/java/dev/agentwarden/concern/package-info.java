/**
 * The concern model: a concern's spec and posture as the manifest declares it ({@code ConcernSpec},
 * {@code Posture}), the context a concern runs in, and the decision it returns.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): Concern, ConcernContext,
 * ConcernResult, ConcernSpec, Decision, Posture, Replay.
 */
package dev.agentwarden.concern;
