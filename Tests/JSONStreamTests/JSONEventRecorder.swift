import JSONStream

/// Writes every event as a line: `{`, `}`, `[`, `]`, `key "k"`, `string "s"`, `number 1.0`, `true`, `null`;
/// with `positions`, each line ends with ` @line:col` of the event.
final class JSONEventRecorder: JSONStreamDelegate {
    var events: [String] = []
    var positions = false
    /// Throw a `Refused` error at the key with this text.
    var failOnKey: String?

    struct Refused: Error, Equatable {
        var key: String
    }

    private func add(_ event: String, _ parser: JSONPushParser) {
        if positions {
            let (line, column) = parser.position
            events.append("\(event) @\(line):\(column)")
        } else {
            events.append(event)
        }
    }

    func startObject(parser: JSONPushParser) throws { add("{", parser) }
    func endObject(parser: JSONPushParser) throws { add("}", parser) }
    func startArray(parser: JSONPushParser) throws { add("[", parser) }
    func endArray(parser: JSONPushParser) throws { add("]", parser) }

    func key(_ key: Span<UInt8>, parser: JSONPushParser) throws {
        let text = key.utf8String
        if text == failOnKey { throw Refused(key: text) }
        add("key \"\(text)\"", parser)
    }

    func string(_ value: Span<UInt8>, parser: JSONPushParser) throws {
        add("string \"\(value.utf8String)\"", parser)
    }

    func number(_ text: Span<UInt8>, parser: JSONPushParser) throws { add("number \(text.utf8String)", parser) }
    func boolean(_ value: Bool, parser: JSONPushParser) throws { add(value ? "true" : "false", parser) }
    func null(parser: JSONPushParser) throws { add("null", parser) }
}

/// The result of parsing bytes fed in the given chunk sizes (cycled), or whole when `chunks` is empty.
struct ParseOutcome: Equatable {
    var events: [String]
    /// `line:col: error: message`, or nil when the text was accepted.
    var error: String?
}

func parseJSON(_ bytes: [UInt8], chunks: [Int] = [], options: JSONStreamOptions = JSONStreamOptions(),
               positions: Bool = false, failOnKey: String? = nil) -> ParseOutcome {
    let recorder = JSONEventRecorder()
    recorder.positions = positions
    recorder.failOnKey = failOnKey
    do {
        let parser = try JSONPushParser(delegate: recorder, options: options)
        var offset = 0, turn = 0
        while offset < bytes.count {
            let size = chunks.isEmpty ? bytes.count : max(1, chunks[turn % chunks.count])
            turn += 1
            try parser.feed(bytes[offset..<min(bytes.count, offset + size)])
            offset += size
        }
        try parser.finish()
        return ParseOutcome(events: recorder.events, error: nil)
    } catch {
        return ParseOutcome(events: recorder.events, error: "\(error)")
    }
}

func parseJSON(_ text: String, chunks: [Int] = [], options: JSONStreamOptions = JSONStreamOptions(),
               positions: Bool = false) -> ParseOutcome {
    parseJSON(Array(text.utf8), chunks: chunks, options: options, positions: positions)
}

/// Feeds `bytes` split at `cut` into two chunks.
func parseJSON(_ bytes: [UInt8], cut: Int, options: JSONStreamOptions = JSONStreamOptions(),
               positions: Bool = false) -> ParseOutcome {
    parseJSON(bytes, chunks: [cut, bytes.count], options: options, positions: positions)
}
