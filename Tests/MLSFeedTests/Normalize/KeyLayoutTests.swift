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

    /// Two fields share a source, one reads two; an agent read from the record's keys; a repeated element's agent
    /// (`each:`), whose keys the record's layout leaves alone; the deletion marker placed without a reader.
    static let shared = Mapping(entity: .listing, fields: [
        FieldMapping(name: "listing_id", sources: ["Key"], type: .text, required: true),
        FieldMapping(name: "list_price", sources: ["Price", "Asking"], type: .money),
        FieldMapping(name: "original_list_price", sources: ["Asking"], type: .money),
    ], embedded: [
        EmbeddedMapping(fields: [
            FieldMapping(name: "agent_mls_id", sources: ["AgentId", "Key"], type: .text, required: true),
        ]),
        EmbeddedMapping(each: "Agents/Agent", fields: [
            FieldMapping(name: "agent_mls_id", sources: ["Id"], type: .text, required: true),
        ]),
    ])

    /// Keys of a record → positions of each field (source order first), of the record agent's field, and `extra`'s.
    @Test(arguments: [
        (["Key", "Price", "Asking", "Pool"], [[0], [1, 2], [2]], [[0]], [3]),
        (["Asking", "Price", "Key"], [[2], [1, 0], [0]], [[2]], []),
        (["Pool", "Asking", "Id", "Asking", "Deleted"], [[], [1, 3], [1, 3]], [[]], [0, 2]),
        (["AgentId", "Key", "AgentId"], [[1], [], []], [[0, 2, 1]], []),
        ([], [[], [], []], [[]], []),
    ] as [([String], [[Int]], [[Int]], [Int])])
    func positionsFollowTheSourcesThenTheKeys(keys: [String], fields: [[Int]], agent: [[Int]], extra: [Int]) {
        var layout = KeyLayout()
        let index = KeyIndex(mapping: Self.shared, placed: Self.shared.placedKeys.union(["Deleted"]))
        layout.adopt(keys.map { RawField($0, "v") }, index: index)
        #expect(layout.fieldPositions == fields)
        #expect(layout.embeddedPositions == [agent])
        #expect(layout.extraPositions == extra)
    }

    @Test func theLayoutIsBuiltForAnEmptyRecordAndRebuiltForTheNext() {
        var layout = KeyLayout()
        let index = KeyIndex(mapping: Self.mapping, placed: Self.mapping.placedKeys)
        layout.adopt([], index: index)
        #expect(layout.fieldPositions == [[], []])
        layout.adopt([RawField("ListPrice", "1"), RawField("ListingKey", "A")], index: index)
        #expect(layout.fieldPositions == [[1], [0]])
    }
}
