import Testing
@testable import MLSFeed

/// A batch's text goes back to the spares once no record shares the batch any more.
@Suite struct SharedBatchTests {
    /// Words of a text, one a record.
    struct Words: SplittableBatch {
        var bytes: [UInt8]

        func fields(at index: Int, recent: inout RecentValues) -> [RawField] {
            let words = DelimitedText.fields(bytes, bytes.indices, delimiter: [0x20])
            return [RawField("word", recent.string(bytes, words[index], position: 0))]
        }
    }

    static func address(_ bytes: [UInt8]) -> UnsafeRawPointer? {
        bytes.withUnsafeBytes { $0.baseAddress }
    }

    @Test func theTextComesBackWhenTheLastRecordIsSplit() {
        let spares = SpareTexts()
        var text = Array("alpha beta".utf8)
        text.reserveCapacity(4096)
        let address = Self.address(text)
        var records = Self.records(sharing: Words(bytes: consume text), spares: spares)
        var splitter = FieldSplitter()
        splitter.split(&records[0])
        #expect(records[0].value("word") == "alpha")
        #expect(spares.take().isEmpty)
        splitter.split(&records[1])
        #expect(records[1].value("word") == "beta")
        let back = spares.take()
        #expect(back.capacity >= 4096 && Self.address(back) == address)
    }

    /// Two records sharing one batch, as `convert` makes them.
    static func records(sharing words: Words, spares: SpareTexts) -> [RawRecord] {
        let shared = SharedBatch(words, spares: spares)
        return (0..<2).map { index in
            var record = RawRecord(fields: [], position: SourcePosition(file: "-", line: 1, column: 1), ordinal: index)
            record.unsplit = UnsplitFields(source: shared, index: index)
            return record
        }
    }

    @Test func atMostTwoSparesAreKept() {
        let spares = SpareTexts()
        for _ in 0..<3 { _ = SharedBatch(Words(bytes: Array("x".utf8)), spares: spares) }
        #expect(!spares.take().isEmpty)
        #expect(!spares.take().isEmpty)
        #expect(spares.take().isEmpty)
    }
}
