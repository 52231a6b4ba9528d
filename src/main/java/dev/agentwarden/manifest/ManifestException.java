package dev.agentwarden.manifest;

import java.util.List;

/** A manifest that cannot be used: unreadable, or with fatal problems. */
public final class ManifestException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient List<ManifestProblem> problems;
    private final boolean unreadable;

    public ManifestException(String message, List<ManifestProblem> problems, boolean unreadable) {
        super(message);
        this.problems = List.copyOf(problems);
        this.unreadable = unreadable;
    }

    public List<ManifestProblem> problems() {
        return problems;
    }

    /** The file could not be read or is not YAML at all (lint exit 2). */
    public boolean unreadable() {
        return unreadable;
    }
}
