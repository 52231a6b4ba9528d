package dev.agentwarden.managed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Where a pulled policy bundle lives: {@code /etc/agent-warden/current} is a symlink, owned by root,
 * to {@code bundles/<version>}, a directory holding that bundle's {@code manifest.yaml} and
 * {@code settings.json}, and the script files its manifest runs by relative path (so the managed
 * layer's own directory, under which {@link LayerScripts} anchors them, is the bundle's). Bundle directories are written whole before the link names them and never
 * changed after; the link is replaced by one {@code rename(2)}.
 */
final class CurrentBundle {
    static final String LINK = "current";
    static final String BUNDLES = "bundles";
    static final String MANIFEST_NAME = "manifest.yaml";
    static final String SETTINGS_NAME = "settings.json";

    private CurrentBundle() {
    }

    /** The bundle directory {@code dir/current} names, or {@code null} when there is no link. */
    static Path resolve(Path dir) throws IOException {
        Path link = dir.resolve(LINK);
        if (!Files.isSymbolicLink(link)) {
            if (Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException(link + " is not a symlink");
            }
            return null;
        }
        int uid = (Integer) Files.getAttribute(link, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        if (uid != 0) {
            throw new IOException(link + " is owned by uid " + uid + ", not root");
        }
        String target;
        try {
            target = Files.readSymbolicLink(link).toString();
        } catch (NoSuchFileException gone) {
            return null;
        }
        if (!isBundleName(target)) {
            throw new IOException(link + " points to '" + target + "'; only " + BUNDLES + "/<version> is read");
        }
        return dir.resolve(target);
    }

    /** {@code bundles/} then decimal digits: a link target that cannot leave the directory. */
    static boolean isBundleName(String target) {
        String prefix = BUNDLES + "/";
        if (!target.startsWith(prefix) || target.length() == prefix.length() || target.length() > prefix.length() + 19) {
            return false;
        }
        for (int i = prefix.length(); i < target.length(); i++) {
            char c = target.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }
}
