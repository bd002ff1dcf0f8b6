import XMLStream

/// A `RecordReader` over the XMLStream push parser, with a format handler turning elements into records.
///
/// Parser errors become `InputError`s located in `source`; after the first error every call rethrows it.
final class XMLRecordReader: RecordReader {
    private let source: String
    private let handler: any RecordHandler
    private let parser: XMLPushParser?
    private var failure: InputError?

    init(handler: any RecordHandler, settings: ParseSettings, source: String) {
        self.source = source
        self.handler = handler
        do {
            let parser = try XMLPushParser(delegate: handler, encoding: settings.encoding, sanitize: settings.sanitize)
            handler.bind(parser)
            self.parser = parser
        } catch {
            self.parser = nil
            failure = Self.inputError(error, source: source)
        }
    }

    func feed(_ chunk: ArraySlice<UInt8>) throws {
        try run { parser in
            try parser.feed(chunk)
            handler.chunkEnded(parser)
        }
    }

    func finish() throws {
        try run { parser in
            try parser.finish()
            try handler.finish(parser)
        }
    }

    func takeRecords() -> [RawRecord] {
        handler.takeRecords()
    }

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
