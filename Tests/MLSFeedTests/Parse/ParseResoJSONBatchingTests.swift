import Foundation
import Testing
@testable import MLSFeed

/// `format: reso-json` in chunks that each end inside a record (as a 1 MiB chunk of a real feed nearly always does).
@Suite struct ParseResoJSONBatchingTests {
    /// Full batches go out between records, so records arrive while the input is read and the reader holds at most
    /// a few batches, not the whole input; order and values are kept.
    @Test(arguments: [false, true])
    func recordsArriveBeforeTheEndWhenEveryChunkEndsInsideARecord(page: Bool) throws {
        let count = 1000
        var text = page ? #"{"@odata.context":"$metadata#Property","value":["# : ""
        var cuts: [Int] = []
        for index in 0..<count {
            let record = #"{"ListingId":"\#(index)","PublicRemarks":"r\#(index)"}"# + (page ? "" : "\n")
            if page && index > 0 { text += "," }
            cuts.append(text.utf8.count + record.utf8.count / 2)
            text += record
        }
        let bytes = Array((text + (page ? "]}" : "")).utf8)
        let mapping = Mapping(entity: .listing, fields: [FieldMapping(name: "listing_id", sources: ["ListingId"],
                                                                      type: .text)])
        let reader = makeRecordReader(settings: ParseSettings(format: .resoJSON(ResoJSONSettings())),
                                      source: "l.json", mapping: mapping)
        var records: [RawRecord] = []
        var offset = 0
        for cut in cuts where cut - offset > 4096 {
            try reader.feed(bytes[offset..<cut])
            records += reader.takeRecords()
            offset = cut
        }
        #expect(records.count >= StructuredXMLHandler.batchRecords)
        try reader.feed(bytes[offset...])
        try reader.finish()
        records += reader.takeRecords()
        #expect(records.map(\.pairs) == (0..<count).map { ["ListingId=\($0)"] })
    }
}
