/**
 * One dispatch: read the host's event (with a deadline and a size cap), resolve the manifest in
 * force, run the concern chain ({@code Dispatcher}) and answer in the host's protocol
 * ({@code DispatchMain}); every transport calls the same entry point.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): BoundedBuiltin, Caller,
 * DispatchMain, DispatchRequest, Dispatcher, HookPortCheck, SessionStrikes, StdinReader.
 */
package dev.agentwarden.dispatch;
