import Testing
import MLSFeed

/// Flat records as the parse stage hands them on, fields unsplit, and split later by `FieldSplitter`.
@Suite struct UnsplitFieldsTests {
    /// The batching suites' feeds (every 500th record from 7 defective), each with its settings.
    static let feeds: [(name: String, bytes: [UInt8], settings: ParseSettings)] = [
        ("triples header-once", ParseTriplesBatchingTests.dump(), ParseFixture.triples),
        ("triples per-record", ParseTriplesBatchingTests.dump(perRecord: true), ParseFixture.triples),
        ("RETS COMPACT", ParseRETSBatchingTests.reply(), ParseRETSBatchingTests.settings),
    ]

    /// Unsplit, a record has no fields yet (a defective one is split at once, its defect known); split later it
    /// equals the record read split, whatever the chunks.
    @Test(arguments: [0, 1, 2], [1 << 20, 97])
    func splitLaterEqualsSplitAtOnce(feed: Int, chunk: Int) throws {
        let (_, bytes, settings) = Self.feeds[feed]
        let split = try ParseFixture.read(bytes, settings: settings, source: "-", chunk: chunk).records
        var unsplit = try ParseFixture.read(bytes, settings: settings, source: "-", chunk: chunk, split: false).records
        try #require(unsplit.count == ParseTriplesBatchingTests.count)
        for (index, record) in unsplit.enumerated() {
            if index % 500 == 7 {
                #expect(record.unsplit == nil && record.defect != nil && !record.fields.isEmpty)
            } else {
                #expect(record.unsplit != nil && record.defect == nil && record.fields.isEmpty)
            }
        }
        #expect(unsplit != split)
        FieldSplitter.split(&unsplit)
        #expect(unsplit.allSatisfy { $0.unsplit == nil })
        #expect(unsplit == split)
    }

    /// One splitter across records of several batches: a long value repeated from the last batch's record is not
    /// taken from that batch's text.
    @Test func oneSplitterAcrossBatches() throws {
        let keys = "<keys>mls_number|public_remarks</keys>"
        var text = "<?xml version=\"1.0\"?>\n<dump>\(keys)\n"
        for index in 0..<1200 {
            // The same long remark in runs of 7, changing at the batches' edges (512 records) too.
            text += "<listing><values>\(index)|A long remark shared by run \(index / 7)</values></listing>\n"
        }
        let bytes = Array((text + "</dump>\n").utf8)
        var unsplit = try ParseFixture.read(bytes, settings: ParseFixture.triples, source: "-", chunk: 4096,
                                           split: false).records
        var splitter = FieldSplitter()
        for index in unsplit.indices { splitter.split(&unsplit[index]) }
        #expect(unsplit.map { $0.value("public_remarks") }
                == (0..<1200).map { "A long remark shared by run \($0 / 7)" })
    }
}
