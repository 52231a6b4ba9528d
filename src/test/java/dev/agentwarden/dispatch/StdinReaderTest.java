package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class StdinReaderTest {
    /** A body already in memory that records which thread read it. */
    private static final class Body extends ByteArrayInputStream {
        Thread reader;

        Body(byte[] bytes) {
            super(bytes);
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) {
            reader = Thread.currentThread();
            return super.read(b, off, len);
        }

        @Override
        public synchronized byte[] readAllBytes() {
            reader = Thread.currentThread();
            return super.readAllBytes();
        }
    }

    @Test
    void inMemoryBody_isReadOnTheCallersThread_withoutAReaderThread() throws Exception {
        Body body = new Body("{\"a\":1}".getBytes(StandardCharsets.UTF_8));

        byte[] read = StdinReader.read(body, 1024, 5000);

        assertThat(new String(read, StandardCharsets.UTF_8)).isEqualTo("{\"a\":1}");
        assertThat(body.reader).as("a server's request body starts no thread per dispatch").isSameAs(Thread.currentThread());
    }

    @Test
    void inMemoryBody_overTheCap_isTooLarge_asFromAPipe() throws Exception {
        assertThat(StdinReader.read(new ByteArrayInputStream(new byte[11]), 10, 5000)).isNull();
        assertThat(StdinReader.read(new ByteArrayInputStream(new byte[10]), 10, 5000)).hasSize(10);
    }
}
