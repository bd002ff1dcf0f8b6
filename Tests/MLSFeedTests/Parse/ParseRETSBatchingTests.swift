import Foundation
import Testing
import MLSFeed

/// A RETS COMPACT reply big enough that its rows are split into fields on the worker thread, fed in various chunk
/// sizes: every record as the rows say, in order, whatever the chunks.
@Suite struct ParseRETSBatchingTests {
    static let count = 3000

    static var settings: ParseSettings {
        var rets = RETSSettings()
        rets.multiValueColumns = ["FEATURES"]
        return ParseSettings(format: .retsCompact(rets))
    }

    /// Tab-delimited rows, one a line after the 4 header lines; every 500th (from 7) lacks two fields, and every
    /// row has a multi-value FEATURES column (empty in every 10th).
    static func reply() -> [UInt8] {
        var text = """
            <?xml version="1.0"?>
            <RETS ReplyCode="0" ReplyText="Success">
            <DELIMITER value="09"/>
            <COLUMNS>\tListingID\tStatus\tFEATURES\tRemarks\t</COLUMNS>

            """
        for index in 0..<count {
            let features = index % 10 == 0 ? "" : "Pool, View ,Spa"
            let row = index % 500 == 7
                ? "\t\(index)\tActive\t" : "\t\(index)\tPending\t\(features)\tNice &amp; \(index) é\t"
            text += "<DATA>\(row)</DATA>\n"
        }
        return Array((text + "</RETS>\n").utf8)
    }

    @Test(arguments: [1 << 20, 65_536, 4_099, 97])
    func recordsKeepOrderOrdinalsAndPositions(chunk: Int) throws {
        let (records, _) = try ParseFixture.read(Self.reply(), settings: Self.settings, source: "-", chunk: chunk)
        try #require(records.count == Self.count)
        for (index, record) in records.enumerated() {
            #expect(record.ordinal == index)
            #expect(record.position.line == index + 5)
            #expect(record.value("ListingID") == "\(index)")
            if index % 500 == 7 {
                #expect(record.defect == "DATA row has 2 fields but COLUMNS has 4")
                continue
            }
            #expect(record.defect == nil)
            #expect(record.value("Remarks") == "Nice & \(index) é")
            let features = record.fields.filter { $0.key == "FEATURES" }.map(\.value)
            #expect(features == (index % 10 == 0 ? [""] : ["Pool", "View", "Spa"]))
        }
    }

    @Test func recordsArriveBeforeTheEndOfABigInput() throws {
        let fed = try ParseFixture.feed(Self.reply(), settings: Self.settings, source: "-", chunk: 8192)
        #expect(fed.beforeEnd > 0)
        #expect(fed.records.count == Self.count)
    }
}
