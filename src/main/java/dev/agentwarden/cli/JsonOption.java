package dev.agentwarden.cli;

import picocli.CommandLine.Option;

/** {@code --json}: a report as one JSON object on stdout instead of text. */
final class JsonOption {
    @Option(names = "--json", description = "Print one JSON object instead of text.")
    boolean json;
}
