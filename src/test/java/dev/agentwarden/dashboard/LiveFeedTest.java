package dev.agentwarden.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The event streams' bookkeeping: the cap, the latest report first, a slow reader dropped, the wire format. */
class LiveFeedTest {
    @Test
    void join_pastTheCap_isRefused_untilOneLeaves() {
        LiveFeed feed = new LiveFeed(2);
        LiveFeed.Client a = feed.join();
        assertThat(feed.join()).isNotNull();
        assertThat(feed.join()).isNull();
        feed.leave(a);
        assertThat(feed.join()).isNotNull();
        assertThat(feed.clients()).isEqualTo(2);
    }

    @Test
    void join_afterAReport_getsTheLatestReportFirst() throws Exception {
        LiveFeed feed = new LiveFeed(2);
        feed.report("<p>one</p>");
        feed.report("<p>two</p>");
        LiveFeed.Client c = feed.join();
        assertThat(new String(c.events.take(), StandardCharsets.UTF_8)).isEqualTo("event: report\nid: 2\ndata: <p>two</p>\n\n");
        assertThat(feed.sections()).isEqualTo("<p>two</p>");
        assertThat(feed.version()).isEqualTo(2);
    }

    @Test
    void client_thatDoesNotRead_isDroppedWhenItsQueueIsFull() {
        LiveFeed feed = new LiveFeed(2);
        LiveFeed.Client slow = feed.join();
        for (int i = 0; i < LiveFeed.QUEUE; i++) {
            feed.decision("{\"n\":" + i + "}");
        }
        assertThat(slow.dropped).isFalse();
        feed.decision("{\"n\":\"one too many\"}");
        assertThat(slow.dropped).isTrue();
        assertThat(slow.events).hasSize(LiveFeed.QUEUE);
    }

    @Test
    void event_withLinesAndCarriageReturns_isOneDataFieldPerLine() {
        assertThat(new String(LiveFeed.event("report", 7, "a\nb\r\n\nc"), StandardCharsets.UTF_8))
                .isEqualTo("event: report\nid: 7\ndata: a\ndata: b \ndata: \ndata: c\n\n");
        assertThat(new String(LiveFeed.event("decision", 0, "{}"), StandardCharsets.UTF_8))
                .isEqualTo("event: decision\ndata: {}\n\n");
    }
}
