/**
 * {@code warden dashboard}: the report's views served on 127.0.0.1 to this user's browser, kept
 * current with server-sent events as decisions are appended to the decision log. Nothing here
 * loads on the dispatch path: the dashboard only reads the log that dispatch writes.
 */
package dev.agentwarden.dashboard;
