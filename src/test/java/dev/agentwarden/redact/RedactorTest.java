package dev.agentwarden.redact;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * The pattern set against a corpus of real-looking secrets (each must be gone from the output, and
 * the text around it kept) and of near misses that must come out unchanged.
 */
class RedactorTest {
    /** {text, the secret in it, the kind it is redacted as}. None of these is a live credential. */
    static List<Arguments> secrets() {
        return java.util.Arrays.asList(
                Arguments.of("claude --key sk-ant-api03-Xy9zQ2mN8pL4kJ7hG6fD5sA3qW1eR0tYuIoPaSd",
                    "sk-ant-api03-Xy9zQ2mN8pL4kJ7hG6fD5sA3qW1eR0tYuIoPaSd", "anthropic_key"),
                Arguments.of("aws s3 ls --profile x AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE", "aws_key"),
                Arguments.of("export AWS_ACCESS_KEY_ID=ASIAY34FZKBOKMUTVV7A", "ASIAY34FZKBOKMUTVV7A", "aws_key"),
                Arguments.of("export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "secret"),
                Arguments.of("git clone https://ghp_R2d2C3poBb8Xk9QzLmNo0PqRsTuVwXyZ1234@github.com/o/r",
                    "ghp_R2d2C3poBb8Xk9QzLmNo0PqRsTuVwXyZ1234", "github_token"),
                Arguments.of("gh auth login --with-token gho_16C7e42F292c6912E7710c838347Ae178B4a",
                    "gho_16C7e42F292c6912E7710c838347Ae178B4a", "secret"),
                Arguments.of("GH=github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVW ./x",
                    "github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVW", "github_token"),
                Arguments.of("curl -H 'x-api-key: sk-ant-api03-Xy9zQ2mN8pL4kJ7hG6fD5sA3qW1eR0tYuIoPaSdFgHjKl-zXcVbNm_AA' api",
                    "sk-ant-api03-Xy9zQ2mN8pL4kJ7hG6fD5sA3qW1eR0tYuIoPaSdFgHjKl-zXcVbNm_AA", "secret"),
                Arguments.of("OPENAI=sk-proj-4fGh7JkL9mNpQ2rStUvWx3yZaBcDeF5gHiJkLmNoP ok", "sk-proj-4fGh7JkL9mNpQ2rStUvWx3yZaBcDeF5gHiJkLmNoP",
                    "openai_key"),
                Arguments.of("use sk-9a8B7c6D5e4F3g2H1i0JkLmNoPqRsTuV for this", "sk-9a8B7c6D5e4F3g2H1i0JkLmNoPqRsTuV", "openai_key"),
                Arguments.of("slack: xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
                    "slack_token"),
                Arguments.of("maps key AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY done", "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY", "google_key"),
                Arguments.of("curl -H \"Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U\" u",
                    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "secret"),
                Arguments.of("token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhYmMifQ.c2lnbmF0dXJlMTIzNDU2Nzg5", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhYmMifQ.c2lnbmF0dXJlMTIzNDU2Nzg5", "jwt"),
                Arguments.of("printf '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2\n-----END RSA PRIVATE KEY-----' > k",
                    "MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2", "private_key"),
                Arguments.of("echo -----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAABG5vbmU", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU", "private_key"),
                Arguments.of("psql postgres://admin:hunter2@db.internal:5432/app", "hunter2", "url_password"),
                Arguments.of("pip install --index-url https://me:S3cr3t-P4ss@pypi.example/simple pkg", "S3cr3t-P4ss", "url_password"),
                Arguments.of("DB_PASSWORD=correct-horse ./run", "correct-horse", "secret"),
                Arguments.of("mysql --password hunter2 -u root", "hunter2", "secret"),
                Arguments.of("deploy --api-key=abc123xyz", "abc123xyz", "secret"),
                Arguments.of("GITHUB_TOKEN=\"not so secret words\" make", "not so secret words", "secret"),
                Arguments.of("curl -d '{\"client_secret\": \"shh-its-me\"}' u", "shh-its-me", "secret"),
                Arguments.of("curl 'https://api.x/v1?user=me&access_token=opensesame1&page=2'", "opensesame1", "secret"),
                Arguments.of("export MY_APP_CREDENTIALS=letmein", "letmein", "secret"),
                Arguments.of("Authorization=Basic", "Basic", "secret"),
                Arguments.of("run with 9f8e7D6c5B4a3Z2y1X0wVuTsRqPoNmLkJiHg please", "9f8e7D6c5B4a3Z2y1X0wVuTsRqPoNmLkJiHg", "high_entropy"),
                Arguments.of("npm config set //registry/:_x Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg==", "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg==", "high_entropy"));
    }

    static List<String> nearMisses() {
        return List.of(
                "git checkout 3f786850e387550fdab836ed7e6dc881de23001b",
                "git show 3F786850E387550FDAB836ED7E6DC881DE23001B",
                "sha256sum: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                "cat /tmp/run/123e4567-e89b-12d3-a456-426614174000/out.log",
                "rm -rf /work/wt/report/src/main/java/dev/agentwarden/decision/DecisionLine.java",
                "ls src/test/java/dev/agentwarden/v2/DecisionLineFormatTest.java",
                "/home/user/.aws/credentials",
                "mvn -B -o verify -Dit.test=ReportHtmlChromiumIT -Dsurefire.failIfNoSpecifiedTests=false",
                "git commit --author=\"Jane Doe <jane@example.com>\" -m 'fix tokenizer'",
                "please refactor the authentication module and internationalization",
                "TOKEN_FILE=/run/secrets/token ./start",
                "sk-learn is not a package; scikit-learn is",
                "echo $PWD && cd ..",
                "curl https://example.com:8443/path?q=1",
                "ssh git@github.com",
                "docker run --password-stdin",
                "kubectl get pods -l app.kubernetes.io/name=api-server-v2",
                "Add a test for ThreadLocalRandomNumberGenerator2Factory",
                "npm i @types/node@20.11.5 typescript@5.4.2",
                "the password policy says 12 characters",
                "java -XX:SharedArchiveFile=target/warden.jsa -jar target/agent-warden-0.9.0-SNAPSHOT.jar");
    }

    @ParameterizedTest
    @MethodSource("secrets")
    void realLookingSecret_isRedacted_andItsTextKept(String text, String secret, String kind) {
        String[] c = {text, secret, kind};
        String out = Redactor.redact(c[0]);
        assertThat(out).doesNotContain(c[1]).contains("[REDACTED:" + c[2] + "]");
        String after = c[0].substring(c[0].indexOf(c[1]) + c[1].length());
        if (!after.contains("-----")) {
            assertThat(out).endsWith(after);
        }
    }

    @ParameterizedTest
    @MethodSource("nearMisses")
    void nearMiss_survives(String text) {
        assertThat(Redactor.redact(text)).isEqualTo(text);
    }

    @Test
    void longText_isCutBeforeTheWordOnTheLimit_neverThroughIt() {
        String secret = "AKIAIOSFODNN7EXAMPLE";
        String text = "x".repeat(95) + " " + secret + " tail";
        String out = Redactor.redactPrefix(text, 100);
        assertThat(out).isEqualTo("x".repeat(95) + " […]");
    }

    @Test
    void entropyThreshold_isCappedAndGrowsWithLength() {
        assertThat(Redactor.entropyThreshold(20)).isLessThan(Redactor.entropyThreshold(40));
        assertThat(Redactor.entropyThreshold(10_000)).isEqualTo(4.5);
        assertThat(Redactor.entropy("aaaa", 0, 4)).isZero();
        assertThat(Redactor.entropy("abcd", 0, 4)).isEqualTo(2.0);
    }
}
