package dev.agentwarden.canonical;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ECMAScript Number::toString on values whose output is fixed by the specification or well known
 * from JavaScript engines; the node oracle test covers random values.
 */
class EcmaNumbersTest {

    static Stream<Arguments> knownValues() {
        return Stream.of(
                Arguments.of("jdk17 prints 1.9999999999999998E23", 2e23, "2e+23"),
                Arguments.of("jdk17 prints 4.9E-324", Double.MIN_VALUE, "5e-324"),
                Arguments.of("largest double", Double.MAX_VALUE, "1.7976931348623157e+308"),
                Arguments.of("smallest normal", Double.MIN_NORMAL, "2.2250738585072014e-308"),
                Arguments.of("negative zero", -0.0, "0"),
                Arguments.of("zero", 0.0, "0"),
                Arguments.of("sum with binary error", 0.1 + 0.2, "0.30000000000000004"),
                Arguments.of("one tenth", 0.1, "0.1"),
                Arguments.of("fixed up to 21 digits", 1e20, "100000000000000000000"),
                Arguments.of("exponent from 22 digits", 1e21, "1e+21"),
                Arguments.of("fraction in fixed form", 123.456, "123.456"),
                Arguments.of("six leading zeros fixed", 0.000001, "0.000001"),
                Arguments.of("seven leading zeros exponent", 1e-7, "1e-7"),
                Arguments.of("exponent with fraction digits", 1.5e-7, "1.5e-7"),
                Arguments.of("negative fraction", -1.5, "-1.5"),
                Arguments.of("negative exponent form", -1e300, "-1e+300"),
                Arguments.of("2^53", 9007199254740992.0, "9007199254740992"),
                Arguments.of("2^53 + 2 (integer above fast path)", 9007199254740994.0, "9007199254740994"),
                Arguments.of("2^60 keeps only shortest digits", 1152921504606846976.0, "1152921504606847000"),
                Arguments.of("jcs values.json 333333333.33333329", 333333333.33333329, "333333333.3333333"),
                Arguments.of("jcs values.json 1E30", 1e30, "1e+30"),
                Arguments.of("jcs values.json 4.50", 4.50, "4.5"),
                Arguments.of("jcs values.json 2e-3", 2e-3, "0.002"),
                Arguments.of("jcs values.json 1e-27", 0.000000000000000000000000001, "1e-27"),
                Arguments.of("1e23", 1e23, "1e+23"),
                Arguments.of("just below 1e23", 9.999999999999997e22, "9.999999999999997e+22"),
                Arguments.of("twice the smallest subnormal", 1e-323, "1e-323"),
                Arguments.of("power of two with uneven gaps", 0x1p-1022 * 2, "4.450147717014403e-308"),
                Arguments.of("three times the smallest subnormal", 3 * Double.MIN_VALUE, "1.5e-323"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("knownValues")
    void toString_knownValue_matchesEcmaScript(String why, double value, String expected) {
        assertThat(EcmaNumbers.toString(value)).isEqualTo(expected);
    }

    @Test
    void toString_longBeyond2pow53_printsNearestDouble() {
        assertThat(EcmaNumbers.toString(9007199254740993L)).isEqualTo("9007199254740992");
        assertThat(EcmaNumbers.toString(-123456789012345678L)).isEqualTo("-123456789012345680");
        assertThat(EcmaNumbers.toString(Long.MIN_VALUE)).isEqualTo("-9223372036854776000");
        assertThat(EcmaNumbers.toString(4503599627370497L)).isEqualTo("4503599627370497");
    }

    @Test
    void toString_nonFinite_isRejected() {
        assertThatThrownBy(() -> EcmaNumbers.toString(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EcmaNumbers.toString(Double.NEGATIVE_INFINITY))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void toString_everyDigitCountAndExponent_readsBackExactly() {
        java.util.Random random = new java.util.Random(8785);
        for (int i = 0; i < 20_000; i++) {
            double value = Double.longBitsToDouble(random.nextLong() & 0x7fef_ffff_ffff_ffffL);
            String text = EcmaNumbers.toString(value);
            assertThat(Double.parseDouble(text)).as(text).isEqualTo(value);
        }
    }
}
