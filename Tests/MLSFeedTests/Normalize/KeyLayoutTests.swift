import Foundation
import Testing
@testable import MLSFeed

/// A batch whose first record has no field a mapping reads. The layout was taken as built for it (its keys, none,
/// equal the empty start), so the record got no field outcomes and the validator trapped (index out of range),
/// stopping the run. Found by the `reso-json` fuzz target: `{}` as a JSON Lines record, read with the Member
/// pipeline (Fixtures/fuzz/reso-json-empty-record.json, the minimized input without the option bytes).
@Suite struct KeyLayoutTests {
    static let mapping = Mapping(entity: .listing, fields: [
        FieldMapping(name: "listing_id", sources: ["ListingKey"], type: .text, required: true),
        FieldMapping(name: "list_price", sources: ["ListPrice"], type: .money),
    ])

    static func fixture(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/fuzz"))
        return try Array(Data(contentsOf: url))
    }

    @Test func aFirstRecordWithoutFieldsIsRejectedNotATrap() throws {
        let bytes = try Self.fixture("reso-json-empty-record.json")
        let (records, _) = try ParseFixture.read(bytes, settings: ParseSettings(format: .resoJSON(ResoJSONSettings())),
                                                 source: "page.json", mapping: Self.mapping)
        let coerced = Normalizer(mapping: Self.mapping, zone: nil).process(records)
        #expect(coerced.map(\.outcomes.count) == [2])
        let validated = Validator(mapping: Self.mapping).process(coerced)
        #expect(validated.records.isEmpty)
        #expect(validated.rejects.map(\.diagnostic)
                == ["page.json:1:1: error: listing_id: required field is not in the feed"])
    }

    @Test func theLayoutIsBuiltForAnEmptyRecordAndRebuiltForTheNext() {
        var layout = KeyLayout()
        layout.adopt([], mapping: Self.mapping, placed: Self.mapping.placedKeys)
        #expect(layout.fieldPositions == [[], []])
        layout.adopt([RawField("ListPrice", "1"), RawField("ListingKey", "A")], mapping: Self.mapping,
                     placed: Self.mapping.placedKeys)
        #expect(layout.fieldPositions == [[1], [0]])
    }
}
