import JSONStream

/// Whether bytes the readers wrote (`extra`, a reject's raw record) are one well-formed JSON object.
package enum JSONCheck {
    /// Whether `bytes` are exactly one JSON object (strict UTF-8, any depth, any size).
    package static func isObject(_ bytes: [UInt8]) -> Bool {
        let first = FirstEvent()
        let options = JSONStreamOptions(maxDepth: 1 << 20, maxValueBytes: 1 << 30)
        guard let parser = try? JSONPushParser(delegate: first, options: options) else { return false }
        do {
            try parser.feed(bytes[...])
            try parser.finish()
        } catch {
            return false
        }
        return first.sawObject
    }
}

/// Notes whether the document's first event opened an object; ignores the rest.
private final class FirstEvent: JSONStreamDelegate {
    private var events = 0
    private(set) var sawObject = false

    private func seen(object: Bool = false) {
        if events == 0 { sawObject = object }
        events += 1
    }

    func startObject(parser: JSONPushParser) throws { seen(object: true) }
    func key(_ key: Span<UInt8>, parser: JSONPushParser) throws { seen() }
    func endObject(parser: JSONPushParser) throws { seen() }
    func startArray(parser: JSONPushParser) throws { seen() }
    func endArray(parser: JSONPushParser) throws { seen() }
    func string(_ value: Span<UInt8>, parser: JSONPushParser) throws { seen() }
    func number(_ text: Span<UInt8>, parser: JSONPushParser) throws { seen() }
    func boolean(_ value: Bool, parser: JSONPushParser) throws { seen() }
    func null(parser: JSONPushParser) throws { seen() }
}
