/**
 * "Did you mean" suggestions ({@code NearMiss}) for the names people type into manifests, rules,
 * policy test cases and host ids. Its own package because its users (manifest, rule, policytest,
 * host, the built-ins) do not otherwise depend on one another, and it depends on nothing in Warden.
 */
package dev.agentwarden.text;
