package dev.agentwarden.managed;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The mount-namespace technique of {@link ManagedLayerIT}: {@code unshare -m} as root, {@code unshare -Urm} otherwise. */
final class ManagedLayerITSupport {
    private ManagedLayerITSupport() {
    }

    static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    static List<String> unshare() {
        return isRoot() ? List.of("unshare", "-m") : List.of("unshare", "-Urm");
    }

    static boolean namespacesWork() {
        try {
            Path d = Files.createTempDirectory("ns-probe");
            Files.createDirectories(d.resolve("up"));
            Files.createDirectories(d.resolve("work"));
            List<String> cmd = new ArrayList<>(unshare());
            cmd.addAll(List.of("bash", "-c", "mount -t overlay overlay -o lowerdir=/etc,upperdir=" + d.resolve("up")
                    + ",workdir=" + d.resolve("work") + " /etc"));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            boolean ok = p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
            new ProcessBuilder("rm", "-rf", d.toString()).start().waitFor(20, TimeUnit.SECONDS);
            return ok;
        } catch (Exception e) {
            return false;
        }
    }
}
