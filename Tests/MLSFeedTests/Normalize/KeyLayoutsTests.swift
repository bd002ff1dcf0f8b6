import Testing
@testable import MLSFeed

/// `KeyLayouts`: a worker's layouts kept across batches, found again by their keys (the last one used first, then
/// by fingerprint), all forgotten beyond `capacity`.
@Suite struct KeyLayoutsTests {
    static let mapping = Mapping(entity: .listing, fields: [
        FieldMapping(name: "listing_id", sources: ["ListingKey"], type: .text, required: true),
        FieldMapping(name: "list_price", sources: ["ListPrice"], type: .money),
    ])

    static let index = KeyIndex(mapping: mapping, placed: mapping.placedKeys)

    static func fields(_ keys: [String]) -> [RawField] { keys.map { RawField($0, "v") } }

    static let usual = ["ListingKey", "ListPrice", "Pool"]
    static let dirty = ["ListingKey", "Pool"]

    /// Keys met in order → (layouts built after each, the listing_id and list_price positions given for each).
    @Test(arguments: [
        ([usual, usual, usual], [1, 1, 1], [[[0], [1]], [[0], [1]], [[0], [1]]]),
        ([usual, dirty, usual, dirty], [1, 2, 2, 2], [[[0], [1]], [[0], []], [[0], [1]], [[0], []]]),
        ([dirty, ["ListPrice", "ListingKey"], dirty], [1, 2, 2], [[[0], []], [[1], [0]], [[0], []]]),
        ([usual, dirty, ["Pool"], usual, ["Pool"], dirty], [1, 2, 3, 3, 3, 3],
         [[[0], [1]], [[0], []], [[], []], [[0], [1]], [[], []], [[0], []]]),
    ] as [([[String]], [Int], [[[Int]]])])
    func aLayoutIsBuiltOncePerKeySequence(keys: [[String]], built: [Int], positions: [[[Int]]]) {
        var layouts = KeyLayouts()
        var builtAfter: [Int] = []
        var given: [[[Int]]] = []
        for sequence in keys {
            let layout = layouts.adopt(Self.fields(sequence), index: Self.index)
            builtAfter.append(layouts.built)
            given.append(layout.fieldPositions)
            #expect(layout.keys == sequence)
            #expect(layouts.recent?.keys == sequence)
        }
        #expect(builtAfter == built)
        #expect(given == positions)
    }

    @Test func everyKeptLayoutIsForgottenBeyondCapacity() {
        var layouts = KeyLayouts()
        let sequences = (0...KeyLayouts.capacity).map { ["ListingKey", "Extra\($0)"] }
        for sequence in sequences.prefix(KeyLayouts.capacity) {
            _ = layouts.adopt(Self.fields(sequence), index: Self.index)
        }
        _ = layouts.adopt(Self.fields(sequences[0]), index: Self.index)
        #expect(layouts.built == KeyLayouts.capacity)
        #expect(layouts.kept == KeyLayouts.capacity)
        // One more sequence: the memo starts over, so the first one is built again.
        _ = layouts.adopt(Self.fields(sequences[KeyLayouts.capacity]), index: Self.index)
        #expect(layouts.kept == 1)
        _ = layouts.adopt(Self.fields(sequences[0]), index: Self.index)
        #expect(layouts.built == KeyLayouts.capacity + 2)
        #expect(layouts.kept == 2)
    }
}
