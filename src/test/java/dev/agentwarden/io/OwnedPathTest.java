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

    private static int privateGid() {
        return OwnedPath.readPrivateGroup(OwnedPath.currentUid(), Path.of("/etc/passwd"), Path.of("/etc/group"));
    }

    /** A gid that is not this user's private group, given to {@code probe}'s kind of file by this process; else the test is skipped. */
    private static int sharedGid(Path probe) throws Exception {
        int own = (Integer) Files.getAttribute(probe, "unix:gid", LinkOption.NOFOLLOW_LINKS);
        int privateGid = privateGid();
        if (own != privateGid) {
            return own;
        }
        Assumptions.assumeTrue(OwnedPath.currentUid() == 0,
                "new files get this user's private group and only root can give them another");
        return privateGid == 1 ? 2 : 1;
    }

    /** Gives {@code path} this user's private group, or skips the test when the user has none. */
    private static void givePrivateGroup(Path path) throws Exception {
        int privateGid = privateGid();
        Assumptions.assumeTrue(privateGid >= 0, "this user has no private group here (its primary group has"
                + " other members, another name, or is another account's primary group)");
        int own = (Integer) Files.getAttribute(path, "unix:gid", LinkOption.NOFOLLOW_LINKS);
        if (own != privateGid) {
            Assumptions.assumeTrue(OwnedPath.currentUid() == 0, "new files do not get this user's private group");
            Files.setAttribute(path, "unix:gid", privateGid, LinkOption.NOFOLLOW_LINKS);
        }
    }

    @Test
    void problem_groupWritableDirectoryOfUsersPrivateGroup_passesAsDebianOpenSshAllows() throws Exception {
        // ~/.local made 0775 under umask 002 on Debian/Ubuntu (user-private groups)
        Path local = privateDir("local");
        Files.setPosixFilePermissions(local, PosixFilePermissions.fromString("rwxrwxr-x"));
        givePrivateGroup(local);
        Path f = file(Files.createDirectory(local.resolve("state")), "rw-rw-r--");
        givePrivateGroup(f);

        assertThat(OwnedPath.problem(local)).isNull();
        assertThat(OwnedPath.problem(f)).isNull();
    }

    @Test
    void problem_groupWritableDirectoryOfSharedGroup_isRefused() throws Exception {
        Path local = privateDir("local");
        Files.setPosixFilePermissions(local, PosixFilePermissions.fromString("rwxrwxr-x"));
        Files.setAttribute(local, "unix:gid", sharedGid(local), LinkOption.NOFOLLOW_LINKS);
        Path f = file(Files.createDirectory(local.resolve("state")), "rw-------");

        assertThat(OwnedPath.problem(f)).contains("directory " + local).contains("writable by group or others");
    }

    @Test
    void problem_worldWritableDirectoryOfUsersPrivateGroup_isRefused() throws Exception {
        Path local = privateDir("local");
        Files.setPosixFilePermissions(local, PosixFilePermissions.fromString("rwxrwxrwx"));
        givePrivateGroup(local);

        assertThat(OwnedPath.problem(local)).contains("writable by group or others");
    }

    @Test
    void privateGroup_primaryGroupNamedAsUserWithNoOtherMember_isIt() {
        String passwd = "root:x:0:0:root:/root:/bin/bash\nalice:x:1000:1000:Alice:/home/alice:/bin/bash\n";

        assertThat(OwnedPath.privateGroup(1000, passwd, "root:x:0:\nalice:x:1000:\nusers:x:100:alice\n")).isEqualTo(1000);
        assertThat(OwnedPath.privateGroup(1000, passwd, "alice:x:1000:alice\n")).as("the user alone as member").isEqualTo(1000);
    }

    @Test
    void privateGroup_sharedOrMisnamedOrSomeoneElsesPrimary_isNone() {
        String passwd = "alice:x:1000:1000::/home/alice:/bin/sh\n";

        assertThat(OwnedPath.privateGroup(1000, passwd, "alice:x:1000:bob\n")).as("another member").isEqualTo(-1);
        assertThat(OwnedPath.privateGroup(1000, passwd, "staff:x:1000:\n")).as("another name").isEqualTo(-1);
        assertThat(OwnedPath.privateGroup(1000, passwd, "users:x:100:\n")).as("no such group").isEqualTo(-1);
        assertThat(OwnedPath.privateGroup(1000, passwd + "bob:x:1001:1000::/home/bob:/bin/sh\n",
                "alice:x:1000:\n")).as("bob's primary group too").isEqualTo(-1);
        assertThat(OwnedPath.privateGroup(1001, passwd, "alice:x:1000:\n")).as("uid not in passwd").isEqualTo(-1);
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

        Path groupWritable = file(dir, "rw-rw----");
        Files.setAttribute(groupWritable, "unix:gid", sharedGid(groupWritable), LinkOption.NOFOLLOW_LINKS);
        assertThat(OwnedPath.problem(groupWritable)).contains("writable by group or others");
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
