package dev.agentwarden.integrity;

/**
 * {@code transport_integrity}, the enforcement axis: was the payload read and attached whole.
 * {@code PARTIAL} is proven loss, {@code UNKNOWN} is missing evidence; both halt, and they are never
 * counted together.
 */
public enum TransportIntegrity {
    INTACT, PARTIAL, UNKNOWN
}
