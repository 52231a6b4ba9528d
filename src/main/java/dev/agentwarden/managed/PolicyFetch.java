package dev.agentwarden.managed;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;

/**
 * One bounded HTTP(S) GET of a policy bundle: HTTPS only (plain HTTP only to 127.0.0.1 and only
 * when asked, for tests), a connect deadline and one deadline for the whole response (a watchdog
 * closes the connection when it passes, so a server that trickles bytes cannot hold the pull), at
 * most {@code maxBytes} of body, and {@code If-None-Match} with the last ETag.
 */
final class PolicyFetch {
    static final int DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

    /** The response: {@code notModified}, or a body with its ETag (maybe {@code null}). */
    record Response(boolean notModified, byte[] body, String etag) {
    }

    private PolicyFetch() {
    }

    static URI checkUrl(String url, boolean allowHttpLoopback) throws IOException {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IOException("not a URL: " + url);
        }
        if ("https".equalsIgnoreCase(uri.getScheme()) && uri.getHost() != null) {
            return uri;
        }
        if ("http".equalsIgnoreCase(uri.getScheme()) && allowHttpLoopback && "127.0.0.1".equals(uri.getHost())) {
            return uri;
        }
        throw new IOException(url + ": a policy bundle is fetched over https only"
                + (allowHttpLoopback ? " (http only from 127.0.0.1)" : ""));
    }

    static Response get(URI uri, String etag, int maxBytes, Duration connect, Duration total) throws IOException {
        HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection();
        c.setInstanceFollowRedirects(false);
        c.setUseCaches(false);
        c.setConnectTimeout((int) connect.toMillis());
        c.setReadTimeout((int) total.toMillis());
        if (etag != null) {
            c.setRequestProperty("If-None-Match", etag);
        }
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(total.toMillis());
                c.disconnect();
            } catch (InterruptedException done) {
                Thread.currentThread().interrupt();
            }
        }, "policy-pull-deadline");
        watchdog.setDaemon(true);
        long start = System.nanoTime();
        watchdog.start();
        try {
            int status = c.getResponseCode();
            if (status == HttpURLConnection.HTTP_NOT_MODIFIED) {
                return new Response(true, null, etag);
            }
            if (status != HttpURLConnection.HTTP_OK) {
                throw new IOException(uri + " answered HTTP " + status);
            }
            long declared = c.getContentLengthLong();
            if (declared > maxBytes) {
                throw new IOException(uri + " declares " + declared + " bytes; a bundle is at most " + maxBytes);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[16384];
            try (InputStream in = c.getInputStream()) {
                for (int n; (n = in.read(buf)) > 0; ) {
                    out.write(buf, 0, n);
                    if (out.size() > maxBytes) {
                        throw new IOException(uri + " sent more than " + maxBytes + " bytes; a bundle is at most "
                                + maxBytes);
                    }
                }
            }
            return new Response(false, out.toByteArray(), c.getHeaderField("ETag"));
        } catch (IOException e) {
            if (System.nanoTime() - start >= total.toNanos() - 50_000_000L) {
                throw new IOException(uri + ": no whole response within the " + total.toMillis() + " ms deadline");
            }
            throw e;
        } finally {
            watchdog.interrupt();
            c.disconnect();
        }
    }
}
