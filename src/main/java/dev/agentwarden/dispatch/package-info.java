/**
 * One dispatch: read the host's event (with a deadline and a size cap), resolve the manifest in
 * force, run the concern chain ({@code Dispatcher}) and answer in the host's protocol
 * ({@code DispatchMain}). Every transport calls the same entry point: it builds a
 * {@code DispatchRequest} (route, payload, caller, environment, transport, {@code FailMode}) and
 * hands it to {@code DispatchRuntime.respond}, which returns the {@code HostResponse}; a server owns
 * one long-lived {@code DispatchRuntime} (open log segments, kept manifests).
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): BoundedBuiltin, Caller,
 * DispatchMain, DispatchRequest, DispatchRuntime, Dispatcher, FailMode, HookPortCheck,
 * SessionStrikes, StdinReader.
 */
package dev.agentwarden.dispatch;
