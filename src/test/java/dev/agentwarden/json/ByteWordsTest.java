package dev.agentwarden.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The word searches find exactly what a byte-by-byte loop finds, at every offset and alignment. */
class ByteWordsTest {
    private static final byte[] ALPHABET = {'a', '"', '\\', '\n', 0x1f, 0x20, 0x7f, (byte) 0x80, (byte) 0xff, 0, '0'};

    @Test
    void indexOfAndStringStop_onRandomBytes_findWhatAByteLoopFinds() {
        Random random = new Random(7);
        for (int round = 0; round < 3000; round++) {
            byte[] b = new byte[random.nextInt(40)];
            for (int i = 0; i < b.length; i++) {
                b[i] = random.nextInt(4) == 0 ? ALPHABET[random.nextInt(ALPHABET.length)] : (byte) ('a' + random.nextInt(26));
            }
            int from = b.length == 0 ? 0 : random.nextInt(b.length);
            int to = from + random.nextInt(b.length - from + 1);
            assertThat(ByteWords.indexOf(b, from, to, (byte) '\n')).isEqualTo(loopIndexOf(b, from, to));
            assertThat(ByteWords.stringStop(b, from, to, true)).isEqualTo(loopStop(b, from, to, true));
            assertThat(ByteWords.stringStop(b, from, to, false)).isEqualTo(loopStop(b, from, to, false));
        }
    }

    @Test
    void word_nearTheArrayEnd_readsOnlyItsBytes() {
        byte[] b = {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'};
        assertThat(ByteWords.word(b, 7, 3)).isEqualTo(ByteWords.word(new byte[] {'h', 'i', 'j', 0, 0, 0, 0, 0}, 0, 8));
        assertThat(ByteWords.word(b, 0, 2)).isEqualTo('a' | 'b' << 8);
        assertThat(ByteWords.word(b, 10, 0)).isZero();
    }

    private static int loopIndexOf(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static int loopStop(byte[] b, int from, int to, boolean high) {
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (c == '"' || c == '\\' || (c & 0xff) < 0x20 || high && c < 0) {
                return i;
            }
        }
        return to;
    }
}
