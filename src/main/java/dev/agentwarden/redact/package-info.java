/**
 * Redaction of secrets from the short texts Warden records of what an agent asked for
 * ({@code Redactor}): run before anything is written, on the dispatch path.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): Redactor.
 */
package dev.agentwarden.redact;
