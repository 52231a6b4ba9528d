package dev.agentwarden.canonical;

import java.math.BigInteger;

/**
 * ECMAScript {@code Number::toString(x)} for finite doubles: the shortest decimal digits that read
 * back as {@code x}, laid out in ECMAScript's fixed or exponent form. RFC 8785 serializes numbers
 * this way, and JDK 17's {@code Double.toString} does not (it prints {@code 2e23} as
 * {@code 1.9999999999999998E23} and {@code 5e-324} as {@code 4.9E-324}).
 *
 * <p>Digits come from the free-format algorithm of Steele &amp; White as refined by Burger &amp;
 * Dybvig ("Printing Floating-Point Numbers Quickly and Accurately", PLDI 1996), in exact integer
 * arithmetic. With {@code v = r/s}, the rounding interval of {@code v} is
 * {@code [(r - mMinus)/s, (r + mPlus)/s]}, its ends included exactly when the significand is even
 * (round-half-even reading). Each step emits the next digit {@code d} of {@code v}; generation stops
 * at the first position where the digits so far (ending in {@code d}) or the same digits ending in
 * {@code d + 1} fall inside the interval. If some k-digit decimal lies in the interval, one of those
 * two does (the interval is convex and contains {@code v}), so the output has the fewest digits. When
 * both qualify, the one nearer to {@code v} wins and an exact tie takes the even digit, which is the
 * choice ECMAScript prescribes. {@code d + 1} never reaches 10: that would need {@code r + mPlus}
 * to have crossed {@code s} a step earlier, where generation would already have stopped.
 */
final class EcmaNumbers {
    private static final long EXACT_INTEGER_LIMIT = 1L << 53;
    private static final long HIDDEN_BIT = 1L << 52;
    private static final long FRACTION_MASK = HIDDEN_BIT - 1;
    /** 10^0 .. 10^400, enough for every scaling of a double (10^-324 .. 10^309). */
    private static final BigInteger[] POW10 = new BigInteger[401];

    static {
        POW10[0] = BigInteger.ONE;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1].multiply(BigInteger.TEN);
        }
    }

    private EcmaNumbers() {
    }

    /**
     * The ECMAScript string form of a finite double ({@code -0} prints as {@code 0}).
     *
     * @throws IllegalArgumentException for NaN and infinities, which JSON cannot carry
     */
    static String toString(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("not a finite number: " + value);
        }
        if (value == 0) {
            return "0";
        }
        double magnitude = Math.abs(value);
        String sign = value < 0 ? "-" : "";
        if (magnitude < EXACT_INTEGER_LIMIT && magnitude == Math.rint(magnitude)) {
            // Below 2^53 an integer's own digits are its shortest form: every shorter candidate is a
            // whole number at least 1 away, outside a rounding interval at most 1/2 wide.
            return sign + (long) magnitude;
        }
        Digits digits = shortestDigits(magnitude);
        return sign + layout(digits.digits(), digits.exponent());
    }

    /** The ECMAScript form of an integer, exact when it has at most 15 digits, else via its double. */
    static String toString(long value) {
        if (value > -EXACT_INTEGER_LIMIT && value < EXACT_INTEGER_LIMIT) {
            return Long.toString(value);
        }
        return toString((double) value);
    }

    /**
     * ECMAScript Number::toString steps 6-10 for {@code 0.digits x 10^n}: k = digits.length(),
     * value = digits x 10^(n-k).
     */
    static String layout(String digits, int n) {
        int k = digits.length();
        StringBuilder out = new StringBuilder(k + 8);
        if (k <= n && n <= 21) {
            out.append(digits);
            for (int i = k; i < n; i++) {
                out.append('0');
            }
        } else if (0 < n && n <= 21) {
            out.append(digits, 0, n).append('.').append(digits, n, k);
        } else if (-6 < n && n <= 0) {
            out.append("0.");
            for (int i = n; i < 0; i++) {
                out.append('0');
            }
            out.append(digits);
        } else {
            out.append(digits.charAt(0));
            if (k > 1) {
                out.append('.').append(digits, 1, k);
            }
            int e = n - 1;
            out.append('e').append(e < 0 ? '-' : '+').append(Math.abs(e));
        }
        return out.toString();
    }

    /** Shortest digits d1..dk and n with {@code value = 0.d1..dk x 10^n}; value positive and finite. */
    static Digits shortestDigits(double value) {
        long bits = Double.doubleToRawLongBits(value);
        int biasedExponent = (int) (bits >>> 52) & 0x7ff;
        long fraction = bits & FRACTION_MASK;
        long significand = biasedExponent == 0 ? fraction : fraction | HIDDEN_BIT;
        int e = biasedExponent == 0 ? -1074 : biasedExponent - 1075;
        boolean even = (significand & 1) == 0;
        // The gap below is half the gap above exactly at a power of two that is not the smallest normal.
        boolean unevenGaps = fraction == 0 && biasedExponent > 1;

        BigInteger r;
        BigInteger s;
        BigInteger mPlus;
        BigInteger mMinus;
        BigInteger f = BigInteger.valueOf(significand);
        if (e >= 0) {
            BigInteger ulp = BigInteger.ONE.shiftLeft(e);
            if (unevenGaps) {
                r = f.shiftLeft(e + 2);
                s = BigInteger.valueOf(4);
                mPlus = ulp.shiftLeft(1);
                mMinus = ulp;
            } else {
                r = f.shiftLeft(e + 1);
                s = BigInteger.TWO;
                mPlus = ulp;
                mMinus = ulp;
            }
        } else if (unevenGaps) {
            r = f.shiftLeft(2);
            s = BigInteger.ONE.shiftLeft(2 - e);
            mPlus = BigInteger.TWO;
            mMinus = BigInteger.ONE;
        } else {
            r = f.shiftLeft(1);
            s = BigInteger.ONE.shiftLeft(1 - e);
            mPlus = BigInteger.ONE;
            mMinus = BigInteger.ONE;
        }

        int n = (int) Math.ceil(Math.log10(value));
        if (n >= 0) {
            s = s.multiply(POW10[n]);
        } else {
            BigInteger scale = POW10[-n];
            r = r.multiply(scale);
            mPlus = mPlus.multiply(scale);
            mMinus = mMinus.multiply(scale);
        }
        // Fix the estimate so that 0.1 <= high end of the interval < 1 (ends per {@code even}).
        while (reachesOne(r.add(mPlus), s, even)) {
            s = s.multiply(BigInteger.TEN);
            n++;
        }
        while (!reachesOne(r.add(mPlus).multiply(BigInteger.TEN), s, even)) {
            r = r.multiply(BigInteger.TEN);
            mPlus = mPlus.multiply(BigInteger.TEN);
            mMinus = mMinus.multiply(BigInteger.TEN);
            n--;
        }

        StringBuilder digits = new StringBuilder(17);
        while (true) {
            BigInteger[] qr = r.multiply(BigInteger.TEN).divideAndRemainder(s);
            int d = qr[0].intValue();
            r = qr[1];
            mPlus = mPlus.multiply(BigInteger.TEN);
            mMinus = mMinus.multiply(BigInteger.TEN);
            int low = r.compareTo(mMinus);
            boolean lowOk = even ? low <= 0 : low < 0;
            boolean highOk = reachesOne(r.add(mPlus), s, even);
            if (!lowOk && !highOk) {
                digits.append((char) ('0' + d));
                continue;
            }
            if (lowOk && highOk) {
                int c = r.shiftLeft(1).compareTo(s);
                if (c > 0 || (c == 0 && (d & 1) == 1)) {
                    d++;
                }
            } else if (highOk) {
                d++;
            }
            digits.append((char) ('0' + d));
            return new Digits(digits.toString(), n);
        }
    }

    /** Whether {@code x/s} reaches 1, counting equality only when interval ends are included. */
    private static boolean reachesOne(BigInteger x, BigInteger s, boolean inclusive) {
        int c = x.compareTo(s);
        return inclusive ? c >= 0 : c > 0;
    }

    /** Decimal digits without leading or trailing zeros, and n with value = 0.digits x 10^n. */
    record Digits(String digits, int exponent) {
    }
}
