import Foundation
import Testing
import MLSFeed

/// Parse-only throughput on a big `triples` file; runs only when `MLSFEED_BENCH_FILE` names one (bench/parse.sh).
@Suite struct ParseBenchmarkTests {
    static let file = ProcessInfo.processInfo.environment["MLSFEED_BENCH_FILE"]

    @Test(.enabled(if: file != nil, "set MLSFEED_BENCH_FILE to a triples dump"))
    func parseOnlyThroughput() throws {
        let path = try #require(Self.file)
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let clock = ContinuousClock()
        let started = clock.now
        let (records, report) = try parseOnly(path: path, settings: ParseSettings(format: .triples(TriplesSettings())))
        let elapsed = clock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let megabytes = Double(bytes) / 1_048_576
        print(String(format: "parse-only: %d records, %.1f MiB in %.2f s = %.1f MiB/s", records, megabytes, seconds,
                     megabytes / seconds))
        #expect(records > 0)
        #expect(report.warnings.isEmpty)
    }
}
