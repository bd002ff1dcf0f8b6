import XMLStream

/// A `RecordReader` over the XMLStream push parser, with a format handler turning elements into records.
///
/// Parser errors become `InputError`s located in `source`; after the first error every call rethrows it.
final class XMLRecordReader: RecordReader {
    private let source: String
    private let handler: any RecordHandler
    private let parser: XMLPushParser?
    private var failure: InputError?

    /// `rewritesNonASCII`: see `XMLPushParser.init`.
    init(handler: any RecordHandler, settings: ParseSettings, source: String, rewritesNonASCII: Bool = false) {
        self.source = source
        self.handler = handler
        do {
            let parser = try XMLPushParser(delegate: handler, encoding: settings.encoding, sanitize: settings.sanitize,
                                           rewritesNonASCII: rewritesNonASCII, maxDepth: settings.maxDepth)
            handler.bind(parser)
            self.parser = parser
        } catch {
            self.parser = nil
            failure = Self.inputError(error, source: source)
        }
    }

    func feed(_ chunk: ArraySlice<UInt8>) throws {
        try run { parser in
            if !sawContent { try sniff(chunk) }
            try parser.feed(chunk)
            try handler.chunkEnded(parser)
        }
    }

    func finish() throws {
        try run { parser in
            if !sawContent {
                throw InputError(fedBytes == 0 ? "the input is empty (0 bytes): not an XML document"
                                 : "the input holds only whitespace: not an XML document",
                                 at: SourcePosition(file: source, line: 1, column: 1))
            }
            try parser.finish()
            try handler.finish(parser)
        }
    }

    /// Whether a byte other than whitespace (or a byte-order mark) was seen, and how many bytes came before it.
    private var sawContent = false
    private var fedBytes = 0

    /// Refuses a document whose first character is not `<` (after a UTF-8 or UTF-16 byte-order mark and
    /// whitespace): a binary file, JSON or CSV gets a message saying what it is not, not libxml2's "Document is
    /// empty".
    private func sniff(_ chunk: ArraySlice<UInt8>) throws {
        for (offset, byte) in chunk.enumerated() {
            let index = fedBytes + offset
            if index < 3 && (byte == 0xEF || byte == 0xBB || byte == 0xBF || byte == 0xFE || byte == 0xFF) { continue }
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x00 { continue }
            sawContent = true
            guard byte == UInt8(ascii: "<") else {
                let shown = chunk.dropFirst(offset).prefix(8).map { String(format: "%02x", $0) }.joined(separator: " ")
                throw InputError("not an XML document: it starts with the bytes \(shown), not \"<\"",
                                 at: SourcePosition(file: source, line: 1, column: 1))
            }
            break
        }
        fedBytes += chunk.count
    }

    func takeRecords(split: Bool) -> [RawRecord] {
        var records = handler.takeRecords()
        if split { FieldSplitter.split(&records) }
        return records
    }

    var heldBytes: Int { (parser?.text.count ?? 0) + handler.heldBytes }

    var report: ParseReport {
        var report = handler.report
        report.sanitizedCharacters = parser?.sanitizedCharacters ?? 0
        return report
    }

    private func run(_ body: (XMLPushParser) throws -> Void) throws {
        if let failure { throw failure }
        guard let parser else { return }
        do {
            try body(parser)
        } catch {
            let inputError = Self.inputError(error, source: source)
            failure = inputError
            throw inputError
        }
    }

    private static func inputError(_ error: any Error, source: String) -> InputError {
        switch error {
        case let error as InputError:
            return error
        case let error as XMLStreamError:
            let position = SourcePosition(file: source, line: max(1, error.line), column: max(1, error.column))
            return InputError(error.message, at: position)
        default:
            return InputError("\(error)", at: SourcePosition(file: source, line: 1, column: 1))
        }
    }
}
