import MLSFeed

/// The XML targets' harness: a record reader of one format fed a document in chunks the input chooses.
///
/// Input layout: byte 0 options (bit 0 `sanitize`; bits 1-2 the declared encoding: none, ISO-8859-1,
/// windows-1252, UTF-16; bit 3 take records after every chunk, else only at the end), byte 1 for the target's
/// format variant, bytes 2-5 the chunk sizes used in turn (0: all that is left), then the document.
package enum XMLHarness {
    static let source = "fuzz.xml"
    static let encodings: [String?] = [nil, "ISO-8859-1", "windows-1252", "UTF-16"]

    /// Parses the document of `bytes` with the format `variant` makes of byte 1, checking the reader's promises:
    /// records in document order with 0-based rising ordinals and positions from 1:1, and every failure an
    /// `InputError` at a real position that the reader repeats on every later call.
    package static func run(_ bytes: [UInt8], format variant: (UInt8) -> FeedFormat) {
        var input = FuzzInput(bytes)
        let options = input.byte()
        let format = variant(input.byte())
        let sizes = (0..<4).map { _ in Int(input.byte()) }
        let document = input.rest
        let settings = ParseSettings(format: format, encoding: encodings[Int(options >> 1) & 3],
                                     sanitize: options & 1 != 0)
        let reader = makeRecordReader(settings: settings, source: source)
        var order = RecordOrder()
        var offset = document.startIndex
        var turn = 0
        do {
            while offset < document.endIndex {
                let size = sizes[turn % sizes.count]
                turn += 1
                let end = size == 0 ? document.endIndex : min(document.endIndex, offset + size)
                try reader.feed(document[offset..<end])
                offset = end
                if options & 8 != 0 { order.check(reader.takeRecords()) }
            }
            try reader.finish()
            order.check(reader.takeRecords())
        } catch {
            let first = inputError(error)
            do {
                try reader.finish()
                Check.that(false, "finish after \(first) did not throw")
            } catch {
                Check.that(inputError(error) == first, "a later call threw \(error), not \(first)")
            }
            order.check(reader.takeRecords())
        }
        let report = reader.report
        Check.that(settings.sanitize || report.sanitizedCharacters == 0, "sanitized characters without sanitize")
        Check.that(report.declaredCount.map { $0 >= 0 } ?? true, "negative declared count")
    }

    /// `error` as the `InputError` it must be, at a position in the fed document.
    private static func inputError(_ error: any Error) -> InputError {
        guard let error = error as? InputError else { fatalError("fuzz invariant broken: not an InputError: \(error)") }
        Check.that(error.position.file == source, "error in another file: \(error)")
        Check.that(error.position.line >= 1 && error.position.column >= 1, "error before 1:1: \(error)")
        return error
    }

    /// The records seen so far, checked batch by batch.
    private struct RecordOrder {
        var next = 0
        var last: (line: Int, column: Int) = (0, 0)

        mutating func check(_ records: [RawRecord]) {
            for record in records {
                let position = record.position
                Check.that(record.ordinal == next, "ordinal \(record.ordinal), expected \(next)")
                Check.that(position.file == source, "record in another file: \(position)")
                Check.that(position.line >= 1 && position.column >= 1, "record before 1:1: \(position)")
                Check.that((position.line, position.column) > last, "record at \(position) not after \(last)")
                next += 1
                last = (position.line, position.column)
            }
        }
    }
}
