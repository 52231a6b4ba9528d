package dev.agentwarden.testing;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The commands' class-data archive (AppCDS) of the packaged jar, for every JVM a process test starts
 * for a command other than {@code dispatch} ({@code install}, {@code doctor}, {@code resident start},
 * ...), trained once per test JVM as {@code bin/warden}'s {@code train_commands} trains its own: the
 * classes {@code __train --commands} loads (the dispatch workload, then picocli and the bulk readers),
 * dumped into a static archive with {@code -Xshare:dump}, then proven with {@code -Xshare:on} to run
 * {@code --version} with nothing on stderr. It only saves start-up time (what a class does is the same
 * from the archive); where it cannot be trained the tests run without it and say so once on stderr.
 *
 * <p>The archive is keyed by the jar's size and mtime and the JDK, under {@code target/it-class-data},
 * beside the dispatch archive of {@code dispatch.ClassDataArchive}; the JVM itself refuses an archive
 * whose jar has changed since.
 */
public final class CommandsArchive {
    private static List<String> flags;

    private CommandsArchive() {
    }

    /** The JVM options that use the archive ({@code -XX:SharedArchiveFile=…}), or none where it could not be trained. */
    public static synchronized List<String> flags() {
        if (flags == null) {
            flags = trainOrReuse();
        }
        return flags;
    }

    private static List<String> trainOrReuse() {
        Path jar = WardenProcess.jar().toAbsolutePath();
        Path scratch = null;
        try {
            Path dir = Files.createDirectories(jar.getParent().resolve("it-class-data"));
            FileTime jarTime = Files.getLastModifiedTime(jar);
            String jdk = Integer.toHexString((System.getProperty("java.home") + System.getProperty("java.vm.version")).hashCode());
            Path archive = dir.resolve("warden-" + Files.size(jar) + "-" + jarTime.toMillis() + "-jdk" + jdk + ".commands.jsa");
            if (Files.isRegularFile(archive) && Files.getLastModifiedTime(archive).equals(jarTime)) {
                prove(archive);
                return List.of("-XX:SharedArchiveFile=" + archive);
            }
            scratch = Files.createTempDirectory("warden-it-commands-archive");
            Path classes = scratch.resolve("commands.classlist");
            Path dumped = scratch.resolve("commands.jsa");
            Map<String, String> env = Map.of("HOME", scratch.resolve("home").toString(),
                    "WARDEN_TRAIN_CACHE", scratch.resolve("cache").toString(),
                    "WARDEN_CACHE_DIR", scratch.resolve("cache").toString(),
                    "XDG_STATE_HOME", scratch.resolve("state").toString());
            require(WardenProcess.run(List.of("-Djava.io.tmpdir=" + scratch, "-XX:DumpLoadedClassList=" + classes),
                    List.of("__train", "--commands"), env, new byte[0], scratch), "the recorded run");
            List<String> dump = new ArrayList<>(List.of(WardenProcess.java().toString()));
            dump.addAll(WardenProcess.FLAGS);
            dump.addAll(List.of("-Xshare:dump", "-XX:SharedClassListFile=" + classes, "-XX:SharedArchiveFile=" + dumped,
                    "-cp", jar.toString()));
            require(WardenProcess.runCommand(dump, Map.of(), new byte[0], scratch), "the dump");
            if (!Files.isRegularFile(dumped)) {
                throw new IOException("the dump wrote no archive");
            }
            prove(dumped);
            Files.setLastModifiedTime(dumped, jarTime);
            Files.move(dumped, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            deleteOthers(dir, archive, "-jdk" + jdk + ".commands.jsa");
            return List.of("-XX:SharedArchiveFile=" + archive);
        } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
            System.err.println("commands' class-data archive for process tests not trained (" + e.getMessage()
                    + "): their install, doctor, ... JVMs start without it, slower");
            return List.of();
        } finally {
            if (scratch != null) {
                try {
                    WardenProcess.deleteTree(scratch);
                } catch (IOException e) {
                    System.err.println("could not delete " + scratch + ": " + e.getMessage());
                }
            }
        }
    }

    /** {@code --version} from {@code archive} alone ({@code -Xshare:on}): the right answer and nothing on stderr. */
    private static void prove(Path archive) throws IOException, InterruptedException {
        WardenProcess.Result check = WardenProcess.run(List.of("-Xshare:on", "-XX:SharedArchiveFile=" + archive),
                List.of("--version"), Map.of(), new byte[0], null);
        if (check.exitCode() != 0 || !check.stdout().startsWith("warden ") || !check.stderr().isEmpty()) {
            throw new IOException("--version from " + archive + " gave exit " + check.exitCode() + ", stdout: "
                    + check.stdout() + ", stderr: " + check.stderr());
        }
    }

    /** Archives of earlier jars for this JDK are dead weight now (a JVM that maps one keeps its pages). */
    private static void deleteOthers(Path dir, Path archive, String suffix) throws IOException {
        try (DirectoryStream<Path> earlier = Files.newDirectoryStream(dir, "warden-*" + suffix)) {
            for (Path old : earlier) {
                if (!old.equals(archive)) {
                    Files.deleteIfExists(old);
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
