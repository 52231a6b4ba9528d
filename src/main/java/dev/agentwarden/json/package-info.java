/**
 * Warden's JSON: a bounded parser ({@code JsonParser}, {@code JsonLimits}), a writer, and scanners for
 * bulk reads.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): Fields, Json, JsonException,
 * JsonLimits, JsonParser, JsonSpans.
 */
package dev.agentwarden.json;
