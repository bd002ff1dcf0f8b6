import Foundation
import Testing
import MLSFeed

/// A database run fingerprints RETS COMPACT rows from their bytes while splitting them: the fingerprint must be the
/// one the normalizer computes from the split fields (multi-value parts, entities and all), and a recognised row
/// keeps only the fields its recognizer needs.
@Suite struct ParseRETSRecognitionTests {
    /// The MLS number from `ListingID`, and an embedded agent read from the multi-value `FEATURES`: both needed.
    static let mapping = Mapping(
        entity: .listing,
        fields: [FieldMapping(name: "listing_id", sources: ["ListingID"], type: .text),
                 FieldMapping(name: "remarks", sources: ["Remarks"], type: .text)],
        embeddedAgent: [FieldMapping(name: "full_name", sources: ["FEATURES"], type: .text)])

    @Test(arguments: [1 << 20, 4_099, 97])
    func rowsAreFingerprintedAndStoredCopiesRecognised(chunk: Int) throws {
        let reply = ParseRETSBatchingTests.reply()
        let settings = ParseRETSBatchingTests.settings
        let plain = try ParseFixture.read(reply, settings: settings, source: "-", chunk: chunk).records
        let probe = try #require(RawRecognizer(mapping: Self.mapping, zone: nil, stored: Pending(StoredListings())))
        // Every third whole row is stored; the rest are new (or changed) listings.
        let stored = plain.filter { $0.defect == nil && $0.ordinal % 3 == 0 }
            .map { (probe.hash.of($0.fields), nil as Int64?) }
        #expect(stored.count == 998)
        let recognizer = try #require(RawRecognizer(mapping: Self.mapping, zone: nil,
                                                    stored: Pending(StoredListings(stored))))
        #expect(recognizer.neededKeys == ["ListingID", "FEATURES"])

        let records = try ParseFixture.read(reply, settings: settings, source: "-", chunk: chunk,
                                            recognizer: recognizer).records
        try #require(records.count == plain.count)
        var recognised = 0
        for (record, expected) in zip(records, plain) {
            #expect(record.ordinal == expected.ordinal && record.position == expected.position)
            #expect(record.defect == expected.defect)
            if expected.defect != nil {
                #expect(record.rawHash == nil && record.stored == nil && record.fields == expected.fields)
                continue
            }
            #expect(record.rawHash == probe.hash.of(expected.fields))
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
}
