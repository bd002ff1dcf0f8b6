import Digest
import Foundation
import MLSFeed
import Testing

extension FetchTests {
    /// Fetch (+ parse) throughput and SHA-256 speed for bench/fetch.sh; skipped unless its variables are set.
    ///
    /// `MLSFEED_FETCH_BENCH_INPUT`: a path or URL read through `Fetcher.open` and parsed as triples
    /// (`MLSFEED_FETCH_BENCH_PARSE=0`: fetch only). `MLSFEED_FETCH_BENCH_SHA=MiB`: hash that much in memory.
    @Suite struct FetchBenchmarkTests {
        static let environment = ProcessInfo.processInfo.environment
        static let input = environment["MLSFEED_FETCH_BENCH_INPUT"]
        static let shaMegabytes = environment["MLSFEED_FETCH_BENCH_SHA"].flatMap(Int.init)

        static func seconds(since start: ContinuousClock.Instant) -> Double {
            let elapsed = ContinuousClock.now - start
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }

        @Test(.enabled(if: input != nil, "set MLSFEED_FETCH_BENCH_INPUT to a triples feed (path or URL)"))
        func fetchThroughput() throws {
            let location = try #require(Self.input)
            let parse = Self.environment["MLSFEED_FETCH_BENCH_PARSE"] != "0"
            let started = ContinuousClock.now
            let source = try open(location)
            let reader = parse ? makeRecordReader(settings: ParseSettings(format: .triples(TriplesSettings())),
                                                  source: source.location) : nil
            var bytes = 0
            var records = 0
            while let chunk = try source.next() {
                bytes += chunk.count
                if let reader {
                    try reader.feed(chunk[...])
                    records += reader.takeRecords().count
                }
            }
            if let reader {
                try reader.finish()
                records += reader.takeRecords().count
            }
            let seconds = Self.seconds(since: started)
            let megabytes = Double(bytes) / 1_048_576
            print(String(format: "fetch%@: %.1f MiB (%lld raw bytes) in %.2f s = %.1f MiB/s, %d records, sha256 %@",
                         parse ? "+parse" : "", megabytes, source.identity.bytes ?? 0, seconds, megabytes / seconds,
                         records, source.identity.sha256 ?? "-"))
            #expect(bytes > 0)
        }

        @Test(.enabled(if: shaMegabytes != nil, "set MLSFEED_FETCH_BENCH_SHA to a size in MiB"))
        func sha256Throughput() throws {
            let megabytes = try #require(Self.shaMegabytes)
            let chunk = (0..<Fetcher.chunkSize).map { UInt8(truncatingIfNeeded: $0 &* 131) }
            var hasher = SHA256()
            let started = ContinuousClock.now
            for _ in 0..<megabytes { hasher.update(chunk) }
            let digest = hasher.finalizeHex()
            let seconds = Self.seconds(since: started)
            print(String(format: "sha256: %d MiB in %.2f s = %.1f MiB/s (%@)", megabytes, seconds,
                         Double(megabytes) / seconds, digest))
            #expect(digest.count == 64)
        }
    }
}
