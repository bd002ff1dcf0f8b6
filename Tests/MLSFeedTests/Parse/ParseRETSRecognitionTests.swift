import Foundation
import Testing
import MLSFeed

/// A database run fingerprints RETS COMPACT rows from their bytes while splitting them (the row from its first field
/// to its last, with its layout: the columns, the multi-value columns, the delimiter), and a recognised row keeps
/// only the fields its recognizer needs.
@Suite struct ParseRETSRecognitionTests {
    /// The MLS number from `ListingID`, and an embedded agent read from the multi-value `FEATURES`: both needed.
    static let mapping = Mapping(
        entity: .listing,
        fields: [FieldMapping(name: "listing_id", sources: ["ListingID"], type: .text),
                 FieldMapping(name: "remarks", sources: ["Remarks"], type: .text)],
        embeddedAgent: [FieldMapping(name: "full_name", sources: ["FEATURES"], type: .text)])

    /// The records of `reply` read with a recognizer of `stored` (fingerprints and stored times).
    static func read(_ reply: [UInt8], settings: ParseSettings = ParseRETSBatchingTests.settings, chunk: Int = 1 << 20,
                     stored: [(UInt64, Int64?)] = []) throws -> (records: [RawRecord], recognizer: RawRecognizer) {
        let recognizer = try #require(RawRecognizer(mapping: mapping, zone: nil,
                                                    stored: BlockingFuture(StoredListings(stored))))
        let records = try ParseFixture.read(reply, settings: settings, source: "-", chunk: chunk,
                                            recognizer: recognizer).records
        return (records, recognizer)
    }

    @Test(arguments: [1 << 20, 4_099, 97])
    func rowsAreFingerprintedAndStoredCopiesRecognised(chunk: Int) throws {
        let reply = ParseRETSBatchingTests.reply()
        let plain = try ParseFixture.read(reply, settings: ParseRETSBatchingTests.settings, source: "-",
                                          chunk: chunk).records
        let first = try Self.read(reply, chunk: chunk).records
        try #require(first.count == plain.count)
        // Every whole row has a fingerprint, and here every row differs from the others (its ListingID).
        let hashes = first.compactMap(\.rawHash)
        #expect(hashes.count == plain.count(where: { $0.defect == nil }))
        #expect(Set(hashes).count == hashes.count)
        // Every third whole row is stored; the rest are new (or changed) listings.
        let stored = first.filter { $0.defect == nil && $0.ordinal % 3 == 0 }.compactMap { record in
            record.rawHash.map { ($0, nil as Int64?) }
        }
        #expect(stored.count == 998)
        let (records, recognizer) = try Self.read(reply, chunk: chunk, stored: stored)
        #expect(recognizer.neededKeys == ["ListingID", "FEATURES"])
        try #require(records.count == plain.count)
        var recognised = 0
        for ((record, expected), fingerprinted) in zip(zip(records, plain), first) {
            #expect(record.ordinal == expected.ordinal && record.position == expected.position)
            #expect(record.defect == expected.defect)
            if expected.defect != nil {
                #expect(record.rawHash == nil && record.stored == nil && record.fields == expected.fields)
                continue
            }
            #expect(record.rawHash == fingerprinted.rawHash)
            if expected.ordinal % 3 == 0 {
                recognised += 1
                #expect(record.stored != nil)
                #expect(record.fields == expected.fields.filter { recognizer.neededKeys.contains($0.key) })
            } else {
                #expect(record.stored == nil && record.fields == expected.fields)
            }
        }
        #expect(recognised == 998)
    }

    /// A one-row reply: `columns` and `row` tab-delimited unless `delimiter` (hex) says otherwise.
    static func reply(columns: String = "\tListingID\tStatus\tFEATURES\tRemarks\t",
                      row: String = "\t1\tPending\tPool, View\tNice\t", delimiter: String = "09") -> [UInt8] {
        Array("""
            <?xml version="1.0"?>
            <RETS ReplyCode="0" ReplyText="Success">
            <DELIMITER value="\(delimiter)"/>
            <COLUMNS>\(columns)</COLUMNS>
            <DATA>\(row)</DATA>
            </RETS>

            """.utf8)
    }

    /// A row of four fields split by tabs (`1|a`, `b|c`, ...) and of four others split by `|` (`1`, `a\tb`, ...).
    static let twoWayRow = "1|a\tb|c\td|e\tf"

    /// What else changes a row's fingerprint besides its values.
    enum Variant: String, CaseIterable {
        case sameRowAgain, unframedRow, oneValueByteChanged, featuresNotMultiValued, columnRenamed
        case sameBytesOtherDelimiter
    }

    /// The same bytes read under another layout are another record (the fields they split into differ): the
    /// fingerprint changes with the multi-value columns, a column's name and the delimiter; not with the row's
    /// framing, which does not change its fields.
    @Test(arguments: Variant.allCases)
    func theLayoutIsPartOfTheFingerprint(variant: Variant) throws {
        let base = try #require(Self.read(variant == .sameBytesOtherDelimiter
                                          ? Self.reply(row: Self.twoWayRow) : Self.reply()).records.first?.rawHash)
        var settings = ParseRETSBatchingTests.settings
        let reply: [UInt8]
        switch variant {
        case .sameRowAgain: reply = Self.reply()
        case .unframedRow: reply = Self.reply(row: "1\tPending\tPool, View\tNice")
        case .oneValueByteChanged: reply = Self.reply(row: "\t1\tPending\tPool, View\tNicE\t")
        case .featuresNotMultiValued:
            settings = ParseSettings(format: .retsCompact(RETSSettings()))
            reply = Self.reply()
        case .columnRenamed: reply = Self.reply(columns: "\tListingID\tStatus\tFEATURES\tNotes\t")
        case .sameBytesOtherDelimiter:
            reply = Self.reply(columns: "|ListingID|Status|FEATURES|Remarks|", row: Self.twoWayRow, delimiter: "7C")
        }
        let record = try #require(Self.read(reply, settings: settings).records.first)
        #expect(record.defect == nil)
        let same = variant == .sameRowAgain || variant == .unframedRow
        #expect((record.rawHash == base) == same, "\(variant)")
    }
}
