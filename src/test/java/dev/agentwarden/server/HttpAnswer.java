package dev.agentwarden.server;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Reads one whole HTTP answer off a socket the tests drive by hand: its head, then its Content-Length body. */
final class HttpAnswer {
    private HttpAnswer() {
    }

    static String read(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("closed in the head: " + head);
            }
            head.append((char) c);
        }
        int at = head.indexOf("Content-Length: ") + 16;
        int length = Integer.parseInt(head.substring(at, head.indexOf("\r", at)));
        return head + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }
}
