/**
 * Strikes: per session, the events some concern refused, kept under {@code .warden/state/strikes/}
 * for {@code escalate} (docs/escalation.md) and the rule field {@code session.strikes}.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): Strikes.
 */
package dev.agentwarden.strike;
