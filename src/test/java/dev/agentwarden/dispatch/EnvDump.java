package dev.agentwarden.dispatch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A concern script that saves the environment it was started with to {@code child-env.bin} in its
 * working directory, and the reader of that file. {@code PWD} is left out: {@code /bin/sh} adds it.
 */
final class EnvDump {
    /** The script's body, after its {@code #!/bin/sh} line; it forks nothing and needs no PATH. */
    static final String SCRIPT = "exec /usr/bin/env -0 -u PWD > child-env.bin";

    private EnvDump() {
    }

    /** The environment the script saw, as saved under {@code dir}. */
    static Map<String, String> read(Path dir) throws IOException {
        Map<String, String> env = new HashMap<>();
        String dump = Files.readString(dir.resolve("child-env.bin"), StandardCharsets.UTF_8);
        for (String entry : dump.split("\0")) {
            if (!entry.isEmpty()) {
                int eq = entry.indexOf('=');
                env.put(entry.substring(0, eq), entry.substring(eq + 1));
            }
        }
        return env;
    }
}
