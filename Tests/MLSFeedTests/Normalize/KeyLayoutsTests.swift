import Testing
@testable import MLSFeed

/// `KeyLayouts`: a worker's layouts kept across batches, found again by their keys, the least recently used one
/// dropped beyond `capacity`.
@Suite struct KeyLayoutsTests {
    static let mapping = Mapping(entity: .listing, fields: [
        FieldMapping(name: "listing_id", sources: ["ListingKey"], type: .text, required: true),
        FieldMapping(name: "list_price", sources: ["ListPrice"], type: .money),
    ])

    static func fields(_ keys: [String]) -> [RawField] { keys.map { RawField($0, "v") } }

    static let usual = ["ListingKey", "ListPrice", "Pool"]
    static let dirty = ["ListingKey", "Pool"]

    /// Keys met in order → (layouts kept after each, the listing_id and list_price positions given for each).
    @Test(arguments: [
        ([usual, usual, usual], [1, 1, 1], [[[0], [1]], [[0], [1]], [[0], [1]]]),
        ([usual, dirty, usual, dirty], [1, 2, 2, 2], [[[0], [1]], [[0], []], [[0], [1]], [[0], []]]),
        ([dirty, ["ListPrice", "ListingKey"], dirty], [1, 2, 2], [[[0], []], [[1], [0]], [[0], []]]),
    ] as [([[String]], [Int], [[[Int]]])])
    func aLayoutIsBuiltOncePerKeySequence(keys: [[String]], kept: [Int], positions: [[[Int]]]) {
        var layouts = KeyLayouts()
        var keptAfter: [Int] = []
        var given: [[[Int]]] = []
        for sequence in keys {
            let layout = layouts.adopt(Self.fields(sequence), mapping: Self.mapping,
                                       placed: Self.mapping.placedKeys)
            keptAfter.append(layouts.layouts.count)
            given.append(layout.fieldPositions)
            #expect(layout.keys == sequence)
            #expect(layouts.layouts.first?.keys == sequence)
        }
        #expect(keptAfter == kept)
        #expect(given == positions)
    }

    @Test func theLeastRecentlyUsedLayoutGoesBeyondCapacity() {
        var layouts = KeyLayouts()
        let sequences = (0...KeyLayouts.capacity).map { ["ListingKey", "Extra\($0)"] }
        for sequence in sequences.prefix(KeyLayouts.capacity) {
            _ = layouts.adopt(Self.fields(sequence), mapping: Self.mapping, placed: Self.mapping.placedKeys)
        }
        // The oldest is used again, so the second oldest is the one dropped for the new sequence.
        _ = layouts.adopt(Self.fields(sequences[0]), mapping: Self.mapping, placed: Self.mapping.placedKeys)
        _ = layouts.adopt(Self.fields(sequences[KeyLayouts.capacity]), mapping: Self.mapping,
                          placed: Self.mapping.placedKeys)
        #expect(layouts.layouts.map(\.keys) == [sequences[4], sequences[0], sequences[3], sequences[2]])
    }
}
