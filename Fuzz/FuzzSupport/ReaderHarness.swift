import Foundation
import MLSFeed

/// The record reader targets' harness: a reader of one format fed a document in chunks the input chooses; for a
/// structured format (nested XML, RESO JSON) its records then go through the pipeline's normalizer and validator.
///
/// Input layout: byte 0 options (bit 0 `sanitize`; bits 1-2 the declared encoding: none, ISO-8859-1,
/// windows-1252, UTF-16; bit 3 take records after every chunk, else only at the end), byte 1 for the target's
/// format variant, bytes 2-5 the chunk sizes used in turn (0: all that is left), then the document. The JSON
/// reader has no encoding or sanitize setting: it ignores those bits.
package enum ReaderHarness {
    static let source = "fuzz.xml"
    static let encodings: [String?] = [nil, "ISO-8859-1", "windows-1252", "UTF-16"]

    /// What a target reads with: the format, and for a structured one the mapping and the source's time zone.
    package struct Setup {
        package var format: FeedFormat
        package var mapping: Mapping?
        package var zone: TimeZone?
        /// The field and value that mark a record a deletion (a Web API pipeline's `deleted_when`).
        package var deletion: WebAPISettings.Deletion?
        /// `format.max_record_bytes` and `format.max_depth`.
        package var maxRecordBytes: Int
        package var maxDepth: Int

        package init(format: FeedFormat, mapping: Mapping? = nil, zone: TimeZone? = nil,
                     deletion: WebAPISettings.Deletion? = nil,
                     maxRecordBytes: Int = ParseSettings.defaultMaxRecordBytes,
                     maxDepth: Int = ParseSettings.defaultMaxDepth) {
            self.format = format
            self.mapping = mapping
            self.zone = zone
            self.deletion = deletion
            self.maxRecordBytes = maxRecordBytes
            self.maxDepth = maxDepth
        }
    }

    /// Parses the document of `bytes` with the setup `variant` makes of byte 1, checking the reader's promises:
    /// records in document order with 0-based rising ordinals and positions from 1:1, `extra` and children as
    /// JSON objects, every failure an `InputError` at a real position that the reader repeats on every later call,
    /// a declared count of 0 or more, path statistics within the records read; then that every reject the
    /// normalizer and validator make of the records is at a record's position and keeps a structured record whole
    /// as a JSON object.
    package static func run(_ bytes: [UInt8], setup variant: (UInt8) -> Setup) {
        var input = FuzzInput(bytes)
        let options = input.byte()
        let setup = variant(input.byte())
        let sizes = (0..<4).map { _ in Int(input.byte()) }
        let document = input.rest
        let settings = ParseSettings(format: setup.format, encoding: encodings[Int(options >> 1) & 3],
                                     sanitize: options & 1 != 0, maxRecordBytes: setup.maxRecordBytes,
                                     maxDepth: setup.maxDepth)
        let reader = makeRecordReader(settings: settings, source: source, mapping: setup.mapping)
        var order = RecordOrder(agents: setup.mapping?.embedded.count ?? 0, rooms: setup.mapping?.rooms != nil,
                                unitTypes: setup.mapping?.unitTypes != nil)
        do {
            try feed(document, sizes: sizes, to: reader) {
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
        for (path, matches) in report.pathMatches {
            Check.that(matches.repeated <= matches.records && matches.records <= order.next,
                       "path \(path) matched \(matches) in \(order.next) records")
        }
        if let mapping = setup.mapping { normalize(order.records, mapping: mapping, setup: setup) }
        switch setup.format {
        case .triples, .retsCompact: compareRewriting(document, sizes: sizes, settings: settings)
        case .xml, .resoJSON: break
        }
    }

    /// Feeds `document` to `reader` in chunks of `sizes` in turn (0: all that is left), calling `chunkFed` after
    /// each.
    private static func feed(_ document: ArraySlice<UInt8>, sizes: [Int], to reader: any RecordReader,
                             chunkFed: () -> Void = {}) throws {
        var offset = document.startIndex
        var turn = 0
        while offset < document.endIndex {
            let size = sizes[turn % sizes.count]
            turn += 1
            let end = size == 0 ? document.endIndex : min(document.endIndex, offset + size)
            try reader.feed(document[offset..<end])
            offset = end
            chunkFed()
        }
    }

    /// A flat format's records (fields, positions, fingerprints) and error are the same whether libxml2 reads
    /// non-ASCII characters as they are or rewritten as character references.
    private static func compareRewriting(_ document: ArraySlice<UInt8>, sizes: [Int], settings: ParseSettings) {
        func outcome(rewriting: Bool) -> [String] {
            let reader = makeRecordReader(settings: settings, source: source, rewritesNonASCII: rewriting)
            var failure = "no error"
            do {
                try feed(document, sizes: sizes, to: reader)
                try reader.finish()
            } catch {
                failure = "\(error)"
            }
            var records = reader.takeRecords()
            FieldSplitter.split(&records)
            return records.map { record in
                let fields = record.fields.map { "\($0.key)=\($0.value.debugDescription)" }.joined(separator: " ")
                return "\(record.ordinal) \(record.position) \(record.defect ?? "-") \(record.rawHash ?? 0) \(fields)"
            } + [failure]
        }
        let plain = outcome(rewriting: false), rewritten = outcome(rewriting: true)
        // One difference libxml2 makes itself: its push parser leaves a document's last byte unread when it is alone
        // in content (it waits for two), so a bad last byte after a text read by the other path than before gives
        // "Premature end of data" on the same line instead of that byte's error.
        if plain.dropLast() == rewritten.dropLast(), let mine = rewritten.last, let theirs = plain.last,
           mine.contains("error: Premature end of data"), mine.prefix { $0 != ":" } == theirs.prefix { $0 != ":" },
           mine.split(separator: ":").dropFirst().first == theirs.split(separator: ":").dropFirst().first {
            return
        }
        let first = zip(plain, rewritten).first { $0 != $1 }
        Check.that(plain == rewritten, "rewriting non-ASCII characters changed the records or the error: "
                   + (first.map { "\($0.0) became \($0.1)" } ?? "\(plain.count) entries became \(rewritten.count)"))
    }

    /// Runs `records` through the normalizer and the validator, checking the rejects.
    private static func normalize(_ records: [RawRecord], mapping: Mapping, setup: Setup) {
        let coerced = Normalizer(mapping: mapping, zone: setup.zone, deletion: setup.deletion).process(records)
        Check.that(coerced.count == records.count, "\(records.count) records normalized to \(coerced.count)")
        let validated = Validator(mapping: mapping).process(coerced)
        let positions = Dictionary(records.map { ($0.ordinal, $0.position) }) { first, _ in first }
        for reject in validated.rejects {
            Check.that(positions[reject.ordinal] == reject.position, "reject \(reject.ordinal) at \(reject.position)")
            if let json = reject.rawJSON {
                Check.that(JSONCheck.isObject(json), "reject raw record is not a JSON object: \(text(json))")
            }
        }
    }

    /// `error` as the `InputError` it must be, at a position in the fed document.
    private static func inputError(_ error: any Error) -> InputError {
        guard let error = error as? InputError else { fatalError("fuzz invariant broken: not an InputError: \(error)") }
        Check.that(error.position.file == source, "error in another file: \(error)")
        Check.that(error.position.line >= 1 && error.position.column >= 1, "error before 1:1: \(error)")
        return error
    }

    /// JSON bytes for a message.
    private static func text(_ json: [UInt8]) -> String {
        String(decoding: json.prefix(2000), as: UTF8.self).debugDescription
    }

    /// The records seen so far, checked batch by batch.
    private struct RecordOrder {
        /// The mapping's embedded entries (agents, offices, media, open houses).
        let agents: Int
        /// Whether the mapping reads rooms and unit types (children of `RawChild.roomsMapping`, `unitTypesMapping`).
        let rooms: Bool
        let unitTypes: Bool
        var next = 0
        var last: (line: Int, column: Int) = (0, 0)
        var records: [RawRecord] = []

        init(agents: Int, rooms: Bool, unitTypes: Bool) {
            self.agents = agents
            self.rooms = rooms
            self.unitTypes = unitTypes
        }

        mutating func check(_ batch: [RawRecord]) {
            for record in batch {
                let position = record.position
                Check.that(record.ordinal == next, "ordinal \(record.ordinal), expected \(next)")
                Check.that(position.file == source, "record in another file: \(position)")
                Check.that(position.line >= 1 && position.column >= 1, "record before 1:1: \(position)")
                Check.that((position.line, position.column) > last, "record at \(position) not after \(last)")
                if let json = record.extraJSON {
                    Check.that(JSONCheck.isObject(json), "extra at \(position) is not a JSON object: \(text(json))")
                }
                for child in record.children {
                    Check.that(child.mapping >= 0 && child.mapping < agents
                                   || child.mapping == RawChild.roomsMapping && rooms
                                   || child.mapping == RawChild.unitTypesMapping && unitTypes,
                               "child of entry \(child.mapping)")
                    Check.that(JSONCheck.isObject(child.extraJSON),
                               "child extra at \(position) is not a JSON object: \(text(child.extraJSON))")
                }
                next += 1
                last = (position.line, position.column)
            }
            records += batch
        }
    }
}
