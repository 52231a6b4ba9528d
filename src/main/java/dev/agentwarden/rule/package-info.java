/**
 * Rules: concerns written as CEL conditions ({@code builtin:rule}) over one typed view of the
 * normalized event ({@link dev.agentwarden.rule.RuleField}), compiled once per loaded manifest and
 * evaluated in-process under a step limit and a deadline. Nothing here loads unless a manifest
 * binds a rule: the CEL library is reached only through {@link dev.agentwarden.rule.Rules}.
 */
package dev.agentwarden.rule;
