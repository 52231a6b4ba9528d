package dev.agentwarden.dispatch;

import java.io.IOException;
import java.nio.file.Path;

/** {@link GoldenCorpus}'s file helpers for tests in other packages. */
public final class GoldenCorpusAccess {
    private GoldenCorpusAccess() {
    }

    public static void deleteTree(Path root) throws IOException {
        GoldenCorpus.deleteTree(root);
    }
}
