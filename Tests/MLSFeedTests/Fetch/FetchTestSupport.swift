import Foundation
import MLSFeed
import Testing

/// The Fetch stage's suites, grouped so that `swift test --filter Fetch` runs all of them.
@Suite(.ownThread) enum FetchTests {}

/// Reads a source to its end; the chunks' sizes come back too.
func drain(_ source: any ChunkSource) throws -> (bytes: [UInt8], chunks: [Int]) {
    var bytes: [UInt8] = []
    var chunks: [Int] = []
    while let chunk = try source.next() {
        bytes += chunk
        chunks.append(chunk.count)
    }
    return (bytes, chunks)
}

/// The source of an outcome that must have a body.
func body(_ outcome: FetchOutcome) throws -> any ChunkSource {
    switch outcome {
    case .source(let source): return source
    case .notModified(let identity): throw FetchServerError(message: "unexpected 304 for \(identity.location)")
    }
}

/// Opens an input that must have a body.
func open(_ location: String, settings: FetchSettings = FetchSettings(), conditional: Conditional? = nil) throws
    -> any ChunkSource {
    try body(Fetcher.open(InputFile(location: location), settings: settings, conditional: conditional))
}

/// Collects `FetchSettings.log` lines across threads.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    var lines: [String] { lock.withLock { stored } }

    func append(_ line: String) { lock.withLock { stored.append(line) } }
}

/// A spool directory for one test (created by the fetch itself), removed by `remove()`.
struct TestSpool {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("mlsfeed-test-spool-\(UUID())").path

    /// The names in the directory (empty when it does not exist).
    var contents: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// The permission bits of the directory.
    var mode: Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}

/// Runs `body` on a thread of its own; `wait(seconds:)` gives what it returned or threw, and when it ended.
final class Background<T: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var outcome: Result<T, any Error>?
    private var ended: ContinuousClock.Instant?

    init(_ body: @escaping @Sendable () throws -> T) {
        Thread {
            let result = Result { try body() }
            self.lock.withLock {
                self.outcome = result
                self.ended = .now
            }
            self.done.signal()
        }.start()
    }

    /// The outcome and the instant it was reached, or nil when `body` is still running after `seconds`.
    func wait(seconds: Double) -> (result: Result<T, any Error>, ended: ContinuousClock.Instant)? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return lock.withLock { (outcome!, ended!) }
    }
}

/// Waits until `condition` holds, checking every 10 ms, failing after `seconds` (a wait for an observed state,
/// not a guess at timing).
func waitUntil(seconds: Double = 10, _ condition: () throws -> Bool) throws {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while try !condition() {
        guard Date() < deadline else { throw FetchServerError(message: "condition not met within \(seconds) s") }
        Thread.sleep(forTimeInterval: 0.01)
    }
}

/// Reads every chunk of what `Fetcher.open` gave; the byte count.
func drainCount(_ outcome: FetchOutcome) throws -> Int {
    try drain(body(outcome)).bytes.count
}
