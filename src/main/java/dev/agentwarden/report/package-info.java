/**
 * {@code warden report}: the decision log and the ledger summed up in one streamed pass each, as a
 * terminal summary, JSON, or a self-contained HTML page with inline SVG charts.
 */
package dev.agentwarden.report;
