// What the extension's service worker may meet that no file of the shipped extension declares.

/** Only the test suite's copy of the extension has allowlist-test.js (tests/e2e/harness.py). */
declare var CDP_TEST_ALLOWLIST: string[] | undefined;
