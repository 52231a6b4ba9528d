/**
 * {@code warden export --otlp}: the decision log and the subagent ledger of a project sent to an
 * OpenTelemetry collector over OTLP/HTTP (protobuf) as spans, log records and metrics, with the
 * OpenTelemetry Java SDK. Loaded only by the export command, never by a dispatch.
 */
package dev.agentwarden.export;
