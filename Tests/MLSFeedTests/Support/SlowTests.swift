import Foundation

/// The suites that build 1M listings (`SearchPlanTests`, `MergePlanTests`: about two minutes of a 2-core machine)
/// run only with `MLSFEED_SLOW_TESTS=1`, which `.ci/run` sets; `scripts/test` alone skips them.
enum SlowTests {
    /// Whether this test process runs them.
    static let enabled = ProcessInfo.processInfo.environment["MLSFEED_SLOW_TESTS"] == "1"
}
