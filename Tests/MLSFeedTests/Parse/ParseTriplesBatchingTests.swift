import Foundation
import Testing
import MLSFeed

/// A dump big enough that its records are split into fields on the worker thread, fed in various chunk sizes.
@Suite struct ParseTriplesBatchingTests {
    static let count = 3000

    static func dump() -> [UInt8] {
        var text = "<?xml version=\"1.0\"?>\n<dump>\n<keys>mls_number|status|public_remarks</keys>\n"
        for index in 0..<count {
            let values = index % 500 == 7 ? "\(index)|Active" : "\(index)|Pending|Remarks &amp; more \(index) é"
            text += "<listing><values>\(values)</values></listing>\n"
        }
        return Array((text + "</dump>\n").utf8)
    }

    @Test(arguments: [1 << 20, 65_536, 4_099, 97])
    func recordsKeepOrderOrdinalsAndPositions(chunk: Int) throws {
        let (records, _) = try ParseFixture.read(Self.dump(), settings: ParseFixture.triples, source: "-", chunk: chunk)
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
        let bytes = Self.dump()
        let reader = makeRecordReader(settings: ParseFixture.triples, source: "-")
        var taken = 0
        var offset = 0
        while offset < bytes.count {
            try reader.feed(bytes[offset..<min(bytes.count, offset + 8192)])
            taken += reader.takeRecords().count
            offset += 8192
        }
        #expect(taken > 0)
        try reader.finish()
        taken += reader.takeRecords().count
        #expect(taken == Self.count)
    }
}
