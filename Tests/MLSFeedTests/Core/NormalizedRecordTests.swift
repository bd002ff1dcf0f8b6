import Testing
@testable import MLSFeed

/// `NormalizedRecord`: a stored copy keeps two columns (key, modification timestamp), whichever way it is made.
@Suite struct NormalizedRecordTests {
    static let position = SourcePosition(file: "feed.xml", line: 1, column: 1)

    @Test func aStoredCopyMadeFromEveryColumnKeepsItsKeyAndTimestamp() {
        var columns = [Value?](repeating: nil, count: Entity.listing.columns.count)
        columns[0] = .text("L1")
        columns[Column.listingIndex["list_price"]!] = .decimal("100")
        columns[Column.listingModificationIndex] = .timestamp("2026-11-01T10:00:00Z")
        let stored = NormalizedRecord(entity: .listing, columns: columns, extra: [], position: Self.position,
                                      ordinal: 3, isStored: true)
        #expect(stored.columns == [.text("L1"), .timestamp("2026-11-01T10:00:00Z")])
        #expect(stored.key == "L1")
        #expect(stored.modificationTimestamp == "2026-11-01T10:00:00Z")
        let expected: [String: Value] = ["listing_id": .text("L1"),
                                         "modification_timestamp": .timestamp("2026-11-01T10:00:00Z")]
        #expect(stored.values == expected)
        // The same columns, not stored: every one kept, the timestamp read from its own column.
        let full = NormalizedRecord(entity: .listing, columns: columns, extra: [], position: Self.position, ordinal: 3)
        #expect(full.columns.count == Entity.listing.columns.count)
        #expect(full.modificationTimestamp == "2026-11-01T10:00:00Z")
        #expect(full.values["list_price"] == .decimal("100"))
    }

    @Test(arguments: [nil, "2026-11-01T10:00:00Z"] as [String?])
    func aStoredCopyByNameIsTheSameAsByColumns(timestamp: String?) {
        var values: [String: Value] = ["listing_id": .text("L2")]
        if let timestamp { values["modification_timestamp"] = .timestamp(timestamp) }
        var byName = NormalizedRecord(entity: .listing, values: values, extra: [], position: Self.position,
                                      ordinal: 0, isStored: true)
        let byColumns = NormalizedRecord(entity: .listing, columns: [.text("L2"), timestamp.map(Value.timestamp)],
                                         extra: [], position: Self.position, ordinal: 0, isStored: true)
        #expect(byName == byColumns)
        #expect(byName.modificationTimestamp == timestamp)
        #expect(byName.isRecognisedKey)
        // Setting `values` keeps the stored layout.
        byName.values = ["listing_id": .text("L3"), "modification_timestamp": .timestamp("2026-12-01T00:00:00Z")]
        #expect(byName.columns == [.text("L3"), .timestamp("2026-12-01T00:00:00Z")])
    }
}
