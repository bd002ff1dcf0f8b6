import Foundation
import JSONStream

/// The JSON parse alone, for the benchmark against Python's `json` and `jq`: reads a file in chunks of the fetch
/// stage's size, counts events and records, keeps nothing.
///
/// A record is an object in the `value` array of an OData page, an object in a top-level array, or a top-level
/// object that is not a page (JSON Lines). Several top-level values are accepted.
package enum JSONParseBench {
    /// What one pass saw.
    package struct Counts: Sendable, Equatable {
        package var events = 0
        package var records = 0
        package var bytes = 0
    }

    /// Parses the file at `path`; with `makeStrings`, turns every key and string into a `String` (to compare
    /// with handing out borrowed bytes).
    package static func run(path: String, makeStrings: Bool = false) throws -> Counts {
        guard let stream = InputStream(fileAtPath: path) else {
            throw InputError("cannot open for reading", at: SourcePosition(file: path, line: 1, column: 1))
        }
        stream.open()
        defer { stream.close() }
        if stream.streamStatus == .error {
            throw InputError("cannot open for reading", at: SourcePosition(file: path, line: 1, column: 1))
        }
        let counter = Counter(makeStrings: makeStrings)
        let parser = try JSONPushParser(delegate: counter, options: JSONStreamOptions(allowsMultipleValues: true))
        var buffer = [UInt8](repeating: 0, count: Fetcher.chunkSize)
        do {
            while true {
                let count = stream.read(&buffer, maxLength: buffer.count)
                if count < 0 {
                    let reason = stream.streamError?.localizedDescription ?? "read failed"
                    throw InputError("cannot read: \(reason)", at: SourcePosition(file: path, line: 1, column: 1))
                }
                if count == 0 { break }
                try parser.feed(buffer[0..<count])
            }
            try parser.finish()
        } catch let error as JSONStreamError {
            throw InputError(error.message, at: SourcePosition(file: path, line: error.line, column: error.column))
        }
        var counts = counter.counts
        counts.bytes = parser.bytesRead
        return counts
    }

    /// Counts events; tells records from pages by depth.
    private final class Counter: JSONStreamDelegate {
        let makeStrings: Bool
        var counts = Counts()
        /// Characters of the strings made (so that making them is not optimized away).
        var characters = 0
        /// The top-level object's last key was `value`; its array holds the records.
        private var valueKeyPending = false
        private var inValueArray = false
        private var topIsPage = false
        private var topIsArray = false

        init(makeStrings: Bool) {
            self.makeStrings = makeStrings
        }

        func startObject(parser: JSONPushParser) throws {
            counts.events += 1
            let depth = parser.depth
            if depth == 1 {
                topIsPage = false
                topIsArray = false
            } else if depth == 2 && topIsArray {
                counts.records += 1  // an object in a top-level array
            } else if depth == 3 && inValueArray {
                counts.records += 1
            }
            valueKeyPending = false
        }

        func endObject(parser: JSONPushParser) throws {
            counts.events += 1
            if parser.depth == 0 && !topIsPage && !topIsArray { counts.records += 1 }
        }

        func startArray(parser: JSONPushParser) throws {
            counts.events += 1
            if parser.depth == 1 { topIsArray = true }
            if parser.depth == 2 && valueKeyPending {
                inValueArray = true
                topIsPage = true
            }
            valueKeyPending = false
        }

        func endArray(parser: JSONPushParser) throws {
            counts.events += 1
            if parser.depth == 1 { inValueArray = false }
        }

        func key(_ key: Span<UInt8>, parser: JSONPushParser) throws {
            counts.events += 1
            if makeStrings { characters += key.utf8String.utf8.count }
            valueKeyPending = parser.depth == 1 && key.elementsEqual("value")
        }

        func string(_ value: Span<UInt8>, parser: JSONPushParser) throws {
            counts.events += 1
            if makeStrings { characters += value.utf8String.utf8.count }
            valueKeyPending = false
        }

        func number(_ text: Span<UInt8>, parser: JSONPushParser) throws {
            counts.events += 1
            if makeStrings { characters += text.utf8String.utf8.count }
            valueKeyPending = false
        }

        func boolean(_ value: Bool, parser: JSONPushParser) throws {
            counts.events += 1
            valueKeyPending = false
        }

        func null(parser: JSONPushParser) throws {
            counts.events += 1
            valueKeyPending = false
        }
    }
}
