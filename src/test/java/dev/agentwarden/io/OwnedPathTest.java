package dev.agentwarden.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The StrictModes-like rule: owned by this user, not group/world-writable, in directories with the same property. */
class OwnedPathTest {
    @TempDir
    Path tmp;

    private Path privateDir(String name) throws Exception {
        Path d = Files.createDirectory(tmp.resolve(name));
        Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwx------"));
        return d;
    }

    private static Path file(Path dir, String mode) throws Exception {
        Path f = Files.writeString(dir.resolve("f.json"), "{}");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(mode));
        return f;
    }

    @Test
    void currentUid_isTheOwnerOfAFileThisProcessCreates() throws Exception {
        Path f = Files.writeString(tmp.resolve("mine"), "x");

        assertThat(OwnedPath.currentUid()).isEqualTo(Files.getAttribute(f, "unix:uid", LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void problem_privateFileInPrivateDirectories_passes() throws Exception {
        Path f = file(privateDir("cache"), "rw-r--r--");

        assertThat(OwnedPath.problem(f)).isNull();
        assertThat(OwnedPath.isPrivate(f.getParent())).isTrue();
    }

    @Test
    void problem_groupOrWorldWritableFile_isRefused() throws Exception {
        Path dir = privateDir("cache");

        assertThat(OwnedPath.problem(file(dir, "rw-rw----"))).contains("writable by group or others");
        Files.delete(dir.resolve("f.json"));
        assertThat(OwnedPath.problem(file(dir, "rw-r--rw-"))).contains("writable by group or others");
    }

    @Test
    void problem_fileInWorldWritableDirectory_isRefused() throws Exception {
        Path shared = privateDir("shared");
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path f = file(Files.createDirectory(shared.resolve("manifests")), "rw-------");

        assertThat(OwnedPath.problem(f)).contains("directory " + shared).contains("writable by group or others");
    }

    @Test
    void problem_ownDirectoryInStickyWorldWritableDirectory_passes() throws Exception {
        Path sticky = privateDir("sticky");
        Files.setPosixFilePermissions(sticky, PosixFilePermissions.fromString("rwxrwxrwx"));
        Assumptions.assumeTrue(new ProcessBuilder("chmod", "1777", sticky.toString()).start().waitFor() == 0,
                "chmod 1777 is not available");
        Path own = Files.createDirectory(sticky.resolve("mine"));
        Files.setPosixFilePermissions(own, PosixFilePermissions.fromString("rwx------"));

        assertThat(OwnedPath.problem(file(own, "rw-------"))).isNull();
    }

    @Test
    void problem_symlink_isRefusedEvenToAPrivateFile() throws Exception {
        Path dir = privateDir("cache");
        Path target = file(dir, "rw-------");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), target);

        assertThat(OwnedPath.problem(link)).contains("is a symlink");
    }

    @Test
    void problem_symlinkedAncestorIntoWorldWritableDirectory_isRefused() throws Exception {
        Path shared = privateDir("shared");
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path real = Files.createDirectory(shared.resolve("cache"));
        file(real, "rw-------");
        Path link = Files.createSymbolicLink(privateDir("home").resolve("cache"), real);

        assertThat(OwnedPath.problem(link.resolve("f.json"))).contains("directory " + shared);
    }

    @Test
    void problem_dotDotThroughSymlinkIntoWorldWritableDirectory_isRefused() throws Exception {
        Path shared = privateDir("shared");
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path deep = Files.createDirectories(shared.resolve("a/b"));
        file(Files.createDirectory(shared.resolve("a/cache")), "rw-------");
        Path home = privateDir("home");
        Files.createDirectory(home.resolve("cache"));
        Files.createSymbolicLink(home.resolve("link"), deep);

        // lexically home/cache/f.json (private, and absent); the kernel opens shared/a/cache/f.json
        assertThat(OwnedPath.problem(home.resolve("link/../cache/f.json"))).contains("directory " + shared);
    }

    @Test
    void problem_fileOwnedByAnotherUid_isRefused() throws Exception {
        Assumptions.assumeTrue(OwnedPath.currentUid() == 0,
                "needs root to give a file to uid 65534; the rule itself is covered by the other cases");
        Path f = file(privateDir("cache"), "rw-------");
        Files.setAttribute(f, "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);

        assertThat(OwnedPath.problem(f)).contains("owned by uid 65534");
    }

    @Test
    void problem_missingFile_isRefused() {
        assertThat(OwnedPath.problem(tmp.resolve("nope"))).contains("cannot be checked");
    }

    @Test
    void createPrivateDirectories_newDirectoriesAre0700WhateverTheUmask() throws Exception {
        Path deep = tmp.resolve("a/b/c");

        OwnedPath.createPrivateDirectories(deep);

        for (Path d : new Path[] {tmp.resolve("a"), tmp.resolve("a/b"), deep}) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(d))).isEqualTo("rwx------");
        }
        assertThat(OwnedPath.problem(deep)).isNull();
    }
}
