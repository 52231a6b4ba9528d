package dev.agentwarden.cli;

import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * What a demo section runs with.
 *
 * @param out      where to print
 * @param workDir  a fresh, empty temporary project directory for this section
 * @param home     the Warden checkout ({@code examples/}, {@code bin/}), or {@code null} if unknown
 * @param launcher {@code bin/warden} when present, else {@code null} (sections then run in-process)
 */
public record DemoEnv(PrintWriter out, Path workDir, Path home, Path launcher) {
}
