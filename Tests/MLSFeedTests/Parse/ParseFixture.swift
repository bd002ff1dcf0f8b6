import Foundation
import Testing
import MLSFeed

/// Loads parse fixtures and runs them through a reader in chunks of a chosen size.
enum ParseFixture {
    static func bytes(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/parse"))
        return try Array(Data(contentsOf: url))
    }

    /// The servlet mapping's key: `listing_id` from `mls_number`, which names the MLS number in triples messages.
    static let servletKey = Mapping(entity: .listing,
                                    fields: [FieldMapping(name: "listing_id", sources: ["mls_number"], type: .text)])

    /// Feeds `bytes` in `chunk`-byte pieces (nil: whole), taking records after each piece; source is `source`.
    /// Flat records' fields are split unless `split` is false (as the parse stage hands them on).
    static func read(_ bytes: [UInt8], settings: ParseSettings, source: String, mapping: Mapping? = nil,
                     chunk: Int? = nil, recognizer: RawRecognizer? = nil,
                     split: Bool = true) throws -> (records: [RawRecord], report: ParseReport) {
        let fed = try feed(bytes, settings: settings, source: source, mapping: mapping, chunk: chunk,
                           recognizer: recognizer, split: split)
        return (fed.records, fed.report)
    }

    /// `read`, also counting the records taken before the reader was finished (the ones that did not wait for the
    /// end of the input).
    static func feed(_ bytes: [UInt8], settings: ParseSettings, source: String, mapping: Mapping? = nil,
                     chunk: Int? = nil, recognizer: RawRecognizer? = nil, split: Bool = true) throws
        -> (records: [RawRecord], report: ParseReport, beforeEnd: Int) {
        var mapping = mapping
        if mapping == nil, case .triples = settings.format { mapping = servletKey }
        let reader = makeRecordReader(settings: settings, source: source, mapping: mapping, recognizer: recognizer)
        var records: [RawRecord] = []
        let size = max(1, chunk ?? bytes.count)
        var offset = 0
        while offset < bytes.count {
            try reader.feed(bytes[offset..<min(bytes.count, offset + size)])
            records += reader.takeRecords(split: split)
            offset += size
        }
        let beforeEnd = records.count
        try reader.finish()
        records += reader.takeRecords(split: split)
        return (records, reader.report, beforeEnd)
    }

    static func read(_ name: String, _ settings: ParseSettings, mapping: Mapping? = nil,
                     chunk: Int? = nil) throws -> (records: [RawRecord], report: ParseReport) {
        try read(bytes(name), settings: settings, source: name, mapping: mapping, chunk: chunk)
    }

    /// The error text a read of fixture `name` throws (nil when it reads fine).
    static func error(_ name: String, _ settings: ParseSettings, chunk: Int? = nil) throws -> String? {
        let bytes = try bytes(name)
        do {
            _ = try read(bytes, settings: settings, source: name, chunk: chunk)
            return nil
        } catch let error as InputError {
            return error.description
        }
    }

    static let triples = ParseSettings(format: .triples(TriplesSettings()))
    static let rets = ParseSettings(format: .retsCompact(RETSSettings()))
    static let xml = ParseSettings(format: .xml(PlainXMLSettings()))
}

extension RawRecord {
    /// `key=value` per field, for compact expectations.
    var pairs: [String] { fields.map { "\($0.key)=\($0.value)" } }
    /// `line:column` of the record.
    var place: String { "\(position.line):\(position.column)" }
}
