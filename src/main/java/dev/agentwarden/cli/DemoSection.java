package dev.agentwarden.cli;

/** One part of {@code warden demo}: a self-contained scenario that prints what it shows. */
interface DemoSection {

    /** A one-line heading. */
    String title();

    /** Runs the scenario in {@code env.workDir()} and prints to {@code env.out()}. */
    void run(DemoEnv env) throws Exception;
}
