package dev.agentwarden.testing;

/** A main that does nothing: what a JVM loads for it is what start-up costs before any Warden code runs. */
public final class EmptyMain {
    private EmptyMain() {
    }

    public static void main(String[] args) {
    }
}
