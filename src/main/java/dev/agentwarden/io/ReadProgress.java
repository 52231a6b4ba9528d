package dev.agentwarden.io;

import java.io.PrintStream;
import java.time.Clock;
import java.util.Locale;

/**
 * A progress bar on stderr for a long read ({@code reading [#####---------------] 25% (25 of 100 MB, 1.5 s)}): shown once a read has taken more than
 * {@link #QUIET_MS} and only when stderr is a terminal, redrawn in place at most five times a
 * second, and erased when the read ends. On a pipe or a file it prints nothing. The launcher
 * tells the JVM whether stderr is a terminal ({@code -Dwarden.stderr.terminal=true}, from
 * {@code [ -t 2 ]}): Java 17 can only ask about stdin and stdout ({@code System.console()}). Reads
 * from several threads may share one.
 */
public final class ReadProgress {
    /** How long a read runs before its progress is shown. */
    public static final long QUIET_MS = 1000;
    /** Shortest interval between redraws. */
    static final long REDRAW_MS = 200;
    /** Characters of the bar. */
    static final int BAR_WIDTH = 20;

    /** Prints nothing. */
    public static final ReadProgress NONE = new ReadProgress("", false, null, Clock.systemUTC());

    private final String what;
    private final boolean terminal;
    private final PrintStream err;
    private final Clock clock;
    private final long started;
    private long total;
    private long done;
    private long shownAt = -1;
    private int width;

    /**
     * @param what     what is read, the line's first words ({@code reading ledger})
     * @param terminal stderr is a terminal
     */
    public ReadProgress(String what, boolean terminal, PrintStream err, Clock clock) {
        this.what = what;
        this.terminal = terminal;
        this.err = err;
        this.clock = clock;
        this.started = clock.millis();
    }

    /** Progress of {@code what} on this process's stderr, shown when the launcher found it a terminal. */
    public static ReadProgress onStderr(String what) {
        return new ReadProgress(what, Boolean.getBoolean("warden.stderr.terminal"), System.err, Clock.systemUTC());
    }

    /** Adds {@code bytes} to the size of the read. */
    public void expect(long bytes) {
        total += bytes;
    }

    /** {@code bytes} more were read. */
    public synchronized void read(long bytes) {
        done += bytes;
        if (!terminal) {
            return;
        }
        long now = clock.millis();
        if (now - started <= QUIET_MS || shownAt >= 0 && now - shownAt < REDRAW_MS) {
            return;
        }
        shownAt = now;
        int percent = total <= 0 ? 0 : (int) Math.min(100, done * 100 / total);
        int filled = percent * BAR_WIDTH / 100;
        String line = String.format(Locale.ROOT, "%s [%s%s] %d%% (%d of %d MB, %.1f s)", what, "#".repeat(filled),
                "-".repeat(BAR_WIDTH - filled), percent, done >> 20, total >> 20, (now - started) / 1000.0);
        err.print("\r" + line + " ".repeat(Math.max(0, width - line.length())));
        err.flush();
        width = line.length();
    }

    /** Erases the progress line, if one was shown. */
    public synchronized void finish() {
        if (width > 0) {
            err.print("\r" + " ".repeat(width) + "\r");
            err.flush();
            width = 0;
        }
    }
}
