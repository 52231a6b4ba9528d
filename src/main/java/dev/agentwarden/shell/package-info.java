/**
 * A small POSIX shell parser ({@code ShellParser}) that turns a shell tool's command line into simple
 * commands, so concerns match commands rather than text; and {@code CommandWalker}, which follows
 * those commands through wrappers and the scripts they hand on to each program they run, with the
 * one set of program-name lists ({@code ProgramNames}) every command check shares.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): CommandWalker, ProgramNames,
 * ShellParser, ShellScript, ShellWord, SimpleCommand.
 */
package dev.agentwarden.shell;
