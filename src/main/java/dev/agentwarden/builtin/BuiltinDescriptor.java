package dev.agentwarden.builtin;

import dev.agentwarden.concern.Concern;
import dev.agentwarden.event.EventName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What Warden knows about one built-in concern: its name, the settings it accepts, the events it
 * may be bound to, how its settings map becomes a typed settings object, and how an instance is
 * made from that object. {@link Builtins#ALL} lists one per built-in.
 */
public abstract class BuiltinDescriptor {
    /**
     * One accepted setting.
     *
     * @param key      the key in the concern's manifest entry
     * @param type     its type in words ({@code duration}, {@code list of {match, reason}})
     * @param fallback its default in words, or {@code required}
     */
    public record Setting(String key, String type, String fallback) {
    }

    private final String name;
    private final List<Setting> settings;
    private final Set<EventName> events;

    /**
     * @param events the events it may be bound to; empty means every event
     */
    protected BuiltinDescriptor(String name, List<Setting> settings, Set<EventName> events) {
        this.name = name;
        this.settings = settings;
        this.events = events;
    }

    public final String name() {
        return name;
    }

    public final List<Setting> settings() {
        return settings;
    }

    /** The setting keys, in declaration order. */
    public final List<String> keys() {
        List<String> out = new ArrayList<>(settings.size());
        for (Setting s : settings) {
            out.add(s.key());
        }
        return out;
    }

    /** Whether it may be bound to {@code event}. */
    public final boolean bindsTo(EventName event) {
        return events.isEmpty() || events.contains(event);
    }

    /** The events it may be bound to; empty means every event. */
    public final Set<EventName> events() {
        return events;
    }

    /**
     * The typed settings for a concern's settings map (only declared keys are present); a built-in
     * that declares no settings keeps this one, which has none.
     *
     * @throws IllegalArgumentException with a message {@code <key path>: <what is wrong>}
     */
    public Object parse(Map<String, Object> settings) {
        return null;
    }

    /**
     * Why a concern with these settings can do nothing on {@code event}, though the built-in binds
     * to it ({@link #bindsTo}), or {@code null}: a lint error at the chain naming it.
     */
    public String cannotRunOn(EventName event, Map<String, Object> settings) {
        return null;
    }

    /** A new instance running with settings returned by {@link #parse}. */
    public abstract Concern create(Object settings);
}
