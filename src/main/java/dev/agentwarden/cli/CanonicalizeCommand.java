package dev.agentwarden.cli;

import dev.agentwarden.canonical.Jcs;
import dev.agentwarden.canonical.JcsException;
import dev.agentwarden.digest.Sha256;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.io.UnsafeFileException;
import dev.agentwarden.json.JsonException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code warden canonicalize [FILE] [--sha256]}: RFC 8785 form of a JSON document. */
@Command(name = "canonicalize", description = {
        "Print the RFC 8785 (JCS) canonical form of a JSON document, with no trailing newline.",
        "Input must be I-JSON: duplicate property names, lone surrogates and invalid UTF-8 are errors (exit 2)."})
final class CanonicalizeCommand implements Callable<Integer> {
    static final int MAX_INPUT_BYTES = 64 * 1024 * 1024;

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "FILE", description = "JSON file; standard input when absent or '-'.")
    String file;

    @Option(names = "--sha256", description = "Print the hex SHA-256 of the canonical bytes instead (with a newline).")
    boolean sha256;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String source = file == null || file.equals("-") ? "<stdin>" : file;
        byte[] canonical;
        try {
            byte[] input = source.equals("<stdin>") ? readLimited(System.in) : readFile(Path.of(file));
            canonical = Jcs.canonicalize(input);
        } catch (IOException e) {
            err.println("warden canonicalize: " + source + ": " + e.getMessage());
            return ExitCode.UNREADABLE.code();
        } catch (JsonException | JcsException e) {
            err.println("warden canonicalize: " + source + ": " + e.getMessage());
            return ExitCode.UNREADABLE.code();
        }
        if (sha256) {
            out.println(Sha256.hex(canonical));
        } else {
            out.print(new String(canonical, StandardCharsets.UTF_8));
        }
        out.flush();
        return ExitCode.OK.code();
    }

    private static byte[] readFile(Path path) throws IOException {
        if (!Files.isRegularFile(path)) {
            throw new IOException("input_unreadable: no such file");
        }
        try {
            return StateFiles.readAll(path, MAX_INPUT_BYTES, true);
        } catch (UnsafeFileException e) {
            throw new IOException(("file_too_large".equals(e.code()) ? "input_too_large: larger than " + MAX_INPUT_BYTES
                    + " bytes" : "input_unreadable: " + e.getMessage()), e);
        }
    }

    private static byte[] readLimited(InputStream in) throws IOException {
        byte[] bytes = in.readNBytes(MAX_INPUT_BYTES + 1);
        if (bytes.length > MAX_INPUT_BYTES) {
            throw new IOException("input_too_large: larger than " + MAX_INPUT_BYTES + " bytes");
        }
        return bytes;
    }
}
