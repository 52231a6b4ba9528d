package dev.agentwarden.dispatch;

import dev.agentwarden.testing.WardenProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Named;

/**
 * A class-data archive (AppCDS) of the packaged jar for the dispatch JVMs a process test starts by
 * the hundred, trained once per build as {@code bin/warden train-archive} trains its own: the
 * {@code __train} workload run once to compile its manifest cache, then recorded with
 * {@code -XX:ArchiveClassesAtExit}, then proven with {@code -Xshare:on} to dispatch with nothing on
 * stderr. It only saves start-up time (what a class does, and which classes a run loads, are the
 * same from the archive); where it cannot be trained the tests run without it and say so on stderr.
 *
 * <p>The archive is keyed by the jar's size and mtime and the JDK, under {@code target/it-class-data};
 * the JVM itself refuses an archive whose jar has changed since.
 */
public final class ClassDataArchive {
    private static List<String> flags;

    private ClassDataArchive() {
    }

    /** The JVM options that use the archive ({@code -XX:SharedArchiveFile=…}), or none where it could not be trained. */
    public static synchronized List<String> flags() {
        if (flags == null) {
            flags = train();
        }
        return flags;
    }

    private static List<String> train() {
        Path jar = WardenProcess.jar();
        Path scratch = null;
        try {
            Path dir = Files.createDirectories(jar.toAbsolutePath().getParent().resolve("it-class-data"));
            FileTime jarTime = Files.getLastModifiedTime(jar);
            Path archive = dir.resolve("warden-" + Files.size(jar) + "-" + jarTime.toMillis() + "-jdk"
                    + Integer.toHexString(System.getProperty("java.home").hashCode()) + ".jsa");
            if (Files.isRegularFile(archive) && Files.getLastModifiedTime(archive).equals(jarTime)) {
                return List.of("-XX:SharedArchiveFile=" + archive);
            }
            scratch = Files.createTempDirectory("warden-it-class-data");
            Path recording = scratch.resolve("warden.jsa");
            Map<String, String> env = Map.of("WARDEN_TRAIN_CACHE", scratch.resolve("cache").toString(),
                    "HOME", scratch.resolve("home").toString());
            WardenProcess.Result warm = WardenProcess.run(List.of(), List.of("__train"), env, new byte[0], scratch);
            require(warm, "the manifest-compiling run");
            WardenProcess.Result record = WardenProcess.run(List.of("-XX:ArchiveClassesAtExit=" + recording),
                    List.of("__train"), env, new byte[0], scratch);
            require(record, "the recorded run");
            if (!Files.isRegularFile(recording)) {
                throw new IOException("the recorded run wrote no archive");
            }
            GoldenCorpus.Case probe = GoldenCorpus.cases().map(Named::getPayload)
                    .filter(c -> c.expected().exitCode() == 0 && c.expected().stderrEmpty()).findFirst().orElseThrow();
            try (GoldenCorpus.Project project = GoldenCorpus.Project.open()) {
                WardenProcess.Result check = WardenProcess.run(List.of("-Xshare:on", "-XX:SharedArchiveFile=" + recording),
                        probe.argv(), project.env(probe), probe.stdin(), project.dir);
                if (check.exitCode() != 0 || !check.stderr().isEmpty()) {
                    throw new IOException("a dispatch from the archive gave exit " + check.exitCode() + ", stderr: " + check.stderr());
                }
            }
            Files.setLastModifiedTime(recording, jarTime);
            Files.move(recording, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return List.of("-XX:SharedArchiveFile=" + archive);
        } catch (IOException | InterruptedException | RuntimeException e) {
            System.err.println("class-data archive for process tests not trained (" + e.getMessage()
                    + "): their JVMs start without it, slower");
            return List.of();
        } finally {
            if (scratch != null) {
                try {
                    GoldenCorpus.deleteTree(scratch);
                } catch (IOException e) {
                    System.err.println("could not delete " + scratch + ": " + e.getMessage());
                }
            }
        }
    }

    private static void require(WardenProcess.Result r, String what) throws IOException {
        if (r.exitCode() != 0) {
            throw new IOException(what + " exited " + r.exitCode() + ": " + r.stderr());
        }
    }
}
