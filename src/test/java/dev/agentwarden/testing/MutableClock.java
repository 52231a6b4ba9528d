package dev.agentwarden.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock tests move by hand, so no test waits for time to pass. A {@link #ticking} one also moves
 * one millisecond on every read, so two reads never see the same instant.
 */
public final class MutableClock extends Clock {
    private final Duration tick;
    private Instant now;

    private MutableClock(Instant start, Duration tick) {
        this.now = start;
        this.tick = tick;
    }

    public MutableClock(Instant start) {
        this(start, Duration.ZERO);
    }

    public static MutableClock at(String isoInstant) {
        return new MutableClock(Instant.parse(isoInstant));
    }

    public static MutableClock ticking(String isoInstant) {
        return new MutableClock(Instant.parse(isoInstant), Duration.ofMillis(1));
    }

    public synchronized void advance(Duration d) {
        now = now.plus(d);
    }

    public synchronized void set(Instant instant) {
        now = instant;
    }

    @Override
    public synchronized Instant instant() {
        now = now.plus(tick);
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
