package dev.agentwarden.strike;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Holds the exclusive lock on {@code <file>} for {@link StrikesTest}: prints {@code locked}, then keeps it until stdin ends. */
public final class StrikeLockHolder {
    private StrikeLockHolder() {
    }

    public static void main(String[] args) throws Exception {
        try (FileChannel ch = FileChannel.open(Path.of(args[0]), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock lock = ch.lock()) {
            System.out.println("locked");
            System.out.flush();
            while (System.in.read() >= 0) {
                // until the test closes our stdin
            }
        }
    }
}
