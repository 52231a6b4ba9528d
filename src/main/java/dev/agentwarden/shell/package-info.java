/**
 * A small POSIX shell parser ({@code ShellParser}) that turns a shell tool's command line into simple
 * commands, so concerns match commands rather than text.
 *
 * <p>On the dispatch hot path (HotPathClassLoadIT checks this list): ShellParser, ShellScript,
 * ShellWord, SimpleCommand.
 */
package dev.agentwarden.shell;
