import Foundation
import Testing
import MLSFeed

@Suite struct ParseRETSCompactTests {
    @Test func compactWithCRLFCountMismatchMaxRowsAndMultiValues() throws {
        var rets = RETSSettings()
        rets.multiValueColumns = ["FEATURES"]
        let (records, report) = try ParseFixture.read("rets-compact.xml", ParseSettings(format: .retsCompact(rets)))
        #expect(records.map(\.pairs) == [
            ["LIST_105=230012345", "MLSNUM=SD-0042", "LIST_22=549000", "FEATURES=Pool", "FEATURES=Spa",
             "FEATURES=View"],
            ["LIST_105=230012346", "MLSNUM=", "LIST_22=600000", "FEATURES="],
            ["LIST_105=230012347", "MLSNUM=SD-0044", "LIST_22=700000", "FEATURES=Pool"],
            ["LIST_105=230012348", "MLSNUM=SD-0045"],
        ])
        #expect(records.map(\.defect) == [nil, nil, nil, "DATA row has 2 fields but COLUMNS has 4"])
        #expect(records.map(\.place) == ["6:1", "7:1", "8:1", "9:1"])
        #expect(records.map(\.ordinal) == [0, 1, 2, 3])
        #expect(report.declaredCount == 4)
        #expect(report.maxRows && !report.truncated)
        #expect(report.warnings == ["MAXROWS: the server stopped at its row limit; the result may be incomplete"])
    }

    @Test func compactDecodedWithPipeDelimiterAndSpacesAroundEquals() throws {
        let (records, report) = try ParseFixture.read("rets-decoded-pipe.xml", ParseFixture.rets)
        #expect(records.map(\.pairs) == [
            ["ListingId=230012345", "StandardStatus=Active", "PublicRemarks=Cozy & bright, near park"],
            ["ListingId=230012346", "StandardStatus=Pending", "PublicRemarks=Fixer"],
        ])
        #expect(records.allSatisfy { $0.defect == nil })
        #expect(report.warnings.isEmpty && report.declaredCount == nil)
    }

    @Test(arguments: ["rets-delimiter-9.xml", "rets-no-delimiter.xml"])
    func tabDelimiterSpelledOrMissing(file: String) throws {
        let (records, _) = try ParseFixture.read(file, ParseFixture.rets)
        #expect(records.first?.pairs == ["MLSNUM=1", "LP=100"])
        #expect(records.allSatisfy { $0.defect == nil })
    }

    @Test func emptyTrailingFieldKeepsItsSlot() throws {
        let (records, _) = try ParseFixture.read("rets-no-delimiter.xml", ParseFixture.rets)
        #expect(records.map(\.pairs) == [["MLSNUM=1", "LP=100"], ["MLSNUM=2", "LP="]])
    }

    @Test func replyCode20201IsAnEmptySuccess() throws {
        let (records, report) = try ParseFixture.read("rets-20201.xml", ParseFixture.rets)
        #expect(records.isEmpty)
        #expect(report == ParseReport())
    }

    @Test func statusTrailer20208IsAWarning() throws {
        let (records, report) = try ParseFixture.read("rets-20208.xml", ParseFixture.rets)
        #expect(records.map(\.pairs) == [["MLSNUM=1"], ["MLSNUM=2"]])
        #expect(report.warnings == ["RETS reply code 20208 (result truncated at the server's row limit): "
                                    + "Maximum Records Exceeded"])
        #expect(report.declaredCount == 2)
        #expect(report.truncated && !report.maxRows)
    }

    @Test(arguments: [
        ("rets-error.xml",
         "rets-error.xml:2:1: error: RETS reply code 20203: Miscellaneous Search Error: Invalid Query Syntax"),
        ("rets-status-error.xml",
         "rets-status-error.xml:5:1: error: RETS reply code 20500: System Error: query timed out"),
        ("rets-bad-delimiter.xml",
         "rets-bad-delimiter.xml:2:1: error: DELIMITER value \"zz\" is not a hexadecimal character code"),
        ("rets-wrong-root.xml",
         "rets-wrong-root.xml:1:1: error: expected a RETS search reply (root element RETS), found listings"),
        ("rets-metadata.xml",
         "rets-metadata.xml:4:1: error: COLUMNS inside METADATA-TABLE: not a RETS search reply (a METADATA reply?); "
            + "a listing pipeline reads COLUMNS and DATA only directly under RETS"),
        ("rets-error-body.xml",
         "rets-error-body.xml:2:1: error: RETS reply code 20203: Miscellaneous Search Error: Invalid class "
            + "(The class RES_X does not exist. Valid classes: RE_1, LD_2)"),
    ])
    func failures(file: String, message: String) throws {
        for chunk in [1, nil] as [Int?] {
            #expect(try ParseFixture.error(file, ParseFixture.rets, chunk: chunk) == message)
        }
    }

    @Test(arguments: [
        ("<RETS ReplyCode=\"0\"><COLUMNS>\tA\t</COLUMNS></RETS>", "no DATA rows"),
        ("<RETS ReplyCode=\"0\"></RETS>", "no COLUMNS and no DATA rows in this RETS reply"),
        ("<RETS ReplyCode=\"20201\" ReplyText=\"No Records Found\"/>", nil),
    ])
    func aReplyWithoutRowsSaysSoUnlessItIsNoRecordsFound(document: String, noRecords: String?) throws {
        let (records, report) = try ParseFixture.read(Array(document.utf8), settings: ParseFixture.rets, source: "-")
        #expect(records.isEmpty)
        #expect(report.noRecords == noRecords)
    }

    @Test func countDifferingFromRowsIsAWarning() throws {
        let document = "<RETS ReplyCode=\"0\"><COUNT Records=\"3\"/><COLUMNS>\tA\t</COLUMNS><DATA>\t1\t</DATA></RETS>"
        let (records, report) = try ParseFixture.read(Array(document.utf8), settings: ParseFixture.rets, source: "-")
        #expect(records.count == 1)
        #expect(report.warnings == ["COUNT says 3 records but 1 DATA rows were read"])
    }
}
