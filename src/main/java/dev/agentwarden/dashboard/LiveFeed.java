package dev.agentwarden.dashboard;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * The server-sent event clients and what they are sent: at most {@code maxClients} at once, each
 * with a queue of {@link #QUEUE} events; a client whose queue is full (it reads too slowly) is
 * dropped rather than waited for. The latest {@code report} event is kept, so that a client that
 * joins gets it first.
 */
final class LiveFeed {
    static final int QUEUE = 256;

    /** One connected event stream. */
    static final class Client {
        final BlockingQueue<byte[]> events = new ArrayBlockingQueue<>(QUEUE);
        volatile boolean dropped;
    }

    private final int maxClients;
    private final List<Client> clients = new ArrayList<>();
    private byte[] report;
    private String sections = "";
    private long reportId;

    LiveFeed(int maxClients) {
        this.maxClients = maxClients;
    }

    /** A new client, its first event the latest report; {@code null} when {@code maxClients} are connected. */
    synchronized Client join() {
        if (clients.size() >= maxClients) {
            return null;
        }
        Client c = new Client();
        if (report != null) {
            c.events.add(report);
        }
        clients.add(c);
        return c;
    }

    synchronized void leave(Client c) {
        clients.remove(c);
    }

    synchronized int clients() {
        return clients.size();
    }

    /** Sends the report's sections (HTML) to every client and keeps them for those that join later. */
    synchronized void report(String sectionsHtml) {
        sections = sectionsHtml;
        report = event("report", ++reportId, sectionsHtml);
        publish(report);
    }

    /** The latest report's sections (HTML), empty before the first. */
    synchronized String sections() {
        return sections;
    }

    /** The number of the latest report event, 0 before the first. */
    synchronized long version() {
        return reportId;
    }

    /** Sends one decision (JSON on one line) to every client. */
    synchronized void decision(String json) {
        publish(event("decision", 0, json));
    }

    /** Sends a problem (one line of text) to every client. */
    synchronized void problem(String text) {
        publish(event("problem", 0, text));
    }

    private void publish(byte[] event) {
        for (Client c : clients) {
            if (!c.events.offer(event)) {
                c.dropped = true;
            }
        }
    }

    /** One event in the text/event-stream format; each line of {@code data} its own {@code data:} field. */
    static byte[] event(String name, long id, String data) {
        StringBuilder b = new StringBuilder(data.length() + 64);
        b.append("event: ").append(name).append('\n');
        if (id > 0) {
            b.append("id: ").append(id).append('\n');
        }
        int from = 0;
        while (from <= data.length()) {
            int nl = data.indexOf('\n', from);
            int to = nl < 0 ? data.length() : nl;
            b.append("data: ");
            for (int i = from; i < to; i++) {
                char ch = data.charAt(i);
                b.append(ch == '\r' ? ' ' : ch);
            }
            b.append('\n');
            if (nl < 0) {
                break;
            }
            from = nl + 1;
        }
        return b.append('\n').toString().getBytes(StandardCharsets.UTF_8);
    }
}
