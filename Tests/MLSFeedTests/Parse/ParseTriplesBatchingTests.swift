import Foundation
import Testing
import MLSFeed

/// A dump big enough that its records are split into fields on the worker thread, fed in various chunk sizes.
@Suite struct ParseTriplesBatchingTests {
    static let count = 3000

    /// Header-once, or per-record (labels and keys inside each record, after the values in every third one).
    static func dump(perRecord: Bool = false) -> [UInt8] {
        let keys = "<keys>mls_number|status|public_remarks</keys>"
        let labels = "<labels>MLS #|Status|Remarks</labels>"
        var text = "<?xml version=\"1.0\"?>\n<dump>\n\(perRecord ? "" : keys)\n"
        for index in 0..<count {
            let values = index % 500 == 7 ? "\(index)|Active" : "\(index)|Pending|Remarks &amp; more \(index) é"
            if !perRecord {
                text += "<listing><values>\(values)</values></listing>\n"
            } else if index % 3 == 0 {
                text += "<listing><values>\(values)</values>\(labels)\(keys)</listing>\n"
            } else {
                text += "<listing>\(labels)\(keys)<values>\(values)</values></listing>\n"
            }
        }
        return Array((text + "</dump>\n").utf8)
    }

    @Test(arguments: [(1 << 20, false), (65_536, false), (4_099, false), (97, false), (65_536, true), (97, true)])
    func recordsKeepOrderOrdinalsAndPositions(chunk: Int, perRecord: Bool) throws {
        let (records, _) = try ParseFixture.read(Self.dump(perRecord: perRecord), settings: ParseFixture.triples,
                                                 source: "-", chunk: chunk)
        try #require(records.count == Self.count)
        for (index, record) in records.enumerated() {
            #expect(record.ordinal == index)
            #expect(record.position.line == index + 4)
            #expect(record.value("mls_number") == "\(index)")
            if index % 500 == 7 {
                #expect(record.defect == "values has 2 fields but keys has 3 (MLS \(index))")
            } else {
                #expect(record.defect == nil)
                #expect(record.value("public_remarks") == "Remarks & more \(index) é")
            }
        }
    }

    @Test func recordsArriveBeforeTheEndOfABigInput() throws {
        let fed = try ParseFixture.feed(Self.dump(), settings: ParseFixture.triples, source: "-", chunk: 8192)
        #expect(fed.beforeEnd > 0)
        #expect(fed.records.count == Self.count)
    }
}
