import Foundation
import MLSFeed
import Testing

/// The Fetch stage's suites, grouped so that `swift test --filter Fetch` runs all of them.
@Suite enum FetchTests {}

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
