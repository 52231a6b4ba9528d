package dev.agentwarden.install.kilo;

import dev.agentwarden.install.HostTrustGate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What Kilo Code checks before it runs a plugin, read from Kilo 7.7.7's shipped code (hosts.md):
 * under {@code KILO_PURE} (also {@code kilo --pure}) it loads no external plugin at all, and under
 * {@code KILO_DISABLE_PROJECT_CONFIG} no project config directory, so no {@code .kilo/plugin/};
 * either way the bridge is written and never runs, without a word from Kilo. Kilo reads both as
 * set when the value is {@code 1} or {@code true} in any case.
 *
 * <p>Before loading the plugins of a config directory Kilo makes sure {@code @kilocode/plugin} is
 * installed there (npm, into that directory) unless it has {@code node_modules} and a lock naming
 * the package; offline that install waits about 80 s before it gives up and the plugins load. That
 * is a note, not a problem: the bridge runs either way.
 */
final class KiloPluginGate implements HostTrustGate {

    @Override
    public List<Finding> check(Path hooksFile, boolean user, Path projectRoot, Map<String, String> env) {
        List<Finding> out = new ArrayList<>();
        if (isSet(env.get("KILO_PURE"))) {
            out.add(new Finding(true, "KILO_PURE is set in this environment: Kilo loads no plugins, so it skips "
                    + hooksFile + " without a word", "unset KILO_PURE (and run kilo without --pure)"));
        } else {
            out.add(new Finding(false, "Kilo loads " + hooksFile + " unless it runs with --pure (or KILO_PURE=1),"
                    + " which skips every plugin", null));
        }
        if (!user && isSet(env.get("KILO_DISABLE_PROJECT_CONFIG"))) {
            out.add(new Finding(true, "KILO_DISABLE_PROJECT_CONFIG is set in this environment: Kilo reads no"
                    + " project config directory, so it skips " + hooksFile,
                    "unset KILO_DISABLE_PROJECT_CONFIG, or install for the user (warden install --host kilo --scope user)"));
        }
        Path configDir = hooksFile.getParent() == null ? null : hooksFile.getParent().getParent();
        if (configDir != null && !Files.isDirectory(configDir.resolve("node_modules"))) {
            out.add(new Finding(false, "before it loads the plugins in " + configDir + " Kilo installs @kilocode/plugin"
                    + " there with npm; offline it waits about 80 s for npm to give up, then loads them", null));
        }
        return out;
    }

    /** Kilo's reading of a flag variable: {@code 1} or {@code true}, in any case. */
    static boolean isSet(String value) {
        if (value == null) {
            return false;
        }
        String v = value.toLowerCase(Locale.ROOT);
        return v.equals("1") || v.equals("true");
    }
}
