package dev.agentwarden.install;

/**
 * The program a command hook runs, as {@code install} hands it to an installer: {@code bin/warden}
 * at {@link #launcher} alone, the compiled hook at {@link #hook} with {@code bin/warden} behind it,
 * or, for files a team commits, {@code warden} from {@code PATH} answering per {@link #missing}
 * where it is not installed ({@link HookCommand} writes each form).
 *
 * @param launcher absolute path of {@code bin/warden}; {@code null} in the portable form
 * @param hook     absolute path of the compiled hook run first; {@code null} when there is none
 * @param missing  what the portable form does where {@code warden} is missing; {@code null} otherwise
 */
public record HookLauncher(String launcher, String hook, HookCommand.IfMissing missing) {

    public HookLauncher {
        if ((missing == null) == (launcher == null) || (hook != null && launcher == null)) {
            throw new IllegalArgumentException("a hook launcher is a launcher path, a hook and a launcher path,"
                    + " or a portable mode");
        }
    }

    /** {@code bin/warden} at {@code launcher} alone. */
    public static HookLauncher plain(String launcher) {
        return new HookLauncher(launcher, null, null);
    }

    /** The compiled hook at {@code hook} when it is there, else {@code launcher}; both absolute paths. */
    public static HookLauncher fast(String hook, String launcher) {
        return new HookLauncher(launcher, hook, null);
    }

    /** {@code warden} from {@code PATH}, answering per {@code mode} where it is missing. */
    public static HookLauncher portable(HookCommand.IfMissing mode) {
        return new HookLauncher(null, null, mode);
    }

    /** Whether this is the portable form, naming no path of this machine. */
    public boolean isPortable() {
        return missing != null;
    }

    /** The command line for one event, {@code tail} being {@code " dispatch --host H --native-event E"}. */
    public String command(String tail) {
        return HookCommand.command(this, tail);
    }

    @Override
    public String toString() {
        return isPortable() ? "warden on PATH (" + missing.wire() + " where missing)"
                : hook == null ? launcher : hook + " else " + launcher;
    }
}
