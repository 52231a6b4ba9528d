package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

class StdinReaderTest {
    @Test
    void inMemoryBody_overTheCap_isTooLarge_asFromAPipe() throws Exception {
        assertThat(StdinReader.read(new ByteArrayInputStream(new byte[11]), 10, 5000)).isNull();
        assertThat(StdinReader.read(new ByteArrayInputStream(new byte[10]), 10, 5000)).hasSize(10);
    }
}
