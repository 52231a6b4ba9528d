package dev.agentwarden.host;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HostResponseTest {

    @Test
    void capped_withinTheCap_isTheTextAsItIs() {
        String text = "x".repeat(40);
        assertThat(HostResponse.capped(text, 40)).isSameAs(text);
        assertThat(HostResponse.capped("", 40)).isEmpty();
    }

    @Test
    void capped_overTheCap_isCutToExactlyTheCap_endingWithTheMarker() {
        String text = "abcdefghij".repeat(10);
        String capped = HostResponse.capped(text, 41);
        assertThat(capped).hasSize(41).isEqualTo(text.substring(0, 18) + " […truncated by warden]");
        assertThat(HostResponse.capped(text + "k", 101)).isEqualTo(text + "k");
    }
}
