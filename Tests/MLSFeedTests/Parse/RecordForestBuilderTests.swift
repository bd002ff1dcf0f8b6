import Testing
@testable import MLSFeed

/// The builder's batches: what a forest holds, and the buffers of a spent forest serving a later batch.
@Suite struct RecordForestBuilderTests {
    /// One record `<a b="1">text</a>`.
    static func build(_ text: String, into builder: RecordForestBuilder) {
        builder.open(name: 0)
        builder.addAttribute(name: 1, value: Array("1".utf8))
        builder.append(text: Array(text.utf8))
        builder.close()
    }

    /// Storage comes back only once no record holds their forest (seen by the capacity a large first batch leaves
    /// in them), and the batch built in them holds its own content only.
    @Test func aSpentForestsBuffersServeALaterBatchOnlyOnceNothingHoldsIt() {
        let builder = RecordForestBuilder()
        let large = String(repeating: "x", count: 20_000)
        Self.build(large, into: builder)
        var first: RecordForest? = builder.take(names: ["a", "b"])  // the builder reserves room for as much again
        Self.build("second", into: builder)
        let second = builder.take(names: ["a", "b"])  // `first` is still held: fresh buffers, sized for "second"
        Self.build("third", into: builder)
        #expect(second.textCapacity >= 20_000)
        first = nil  // its buffers are given back
        let third = builder.take(names: ["a", "b"])  // the builder now holds the first forest's buffers
        #expect(third.textCapacity < 20_000)
        Self.build("4th", into: builder)
        let fourth = builder.take(names: ["a", "b"])
        #expect(fourth.textCapacity >= 20_000)
        #expect(fourth.nodes.count == 1 && fourth.attributes.count == 1 && fourth.text.count == 3)
        #expect(fourth.value(of: 0) == "4th")
        #expect(fourth.attributeValue(fourth.attributes[0]) == "1")
        #expect(third.value(of: 0) == "third" && second.value(of: 0) == "second")
    }
}

extension RecordForestBuilderTests {
    /// A node is 36 bytes: the forests of the records in flight are most of a run's memory.
    @Test func aNodeTakes36Bytes() {
        #expect(MemoryLayout<RecordForest.Node>.stride == 36)
    }
}
