import Foundation
import Testing
@testable import MLSFeed

/// A document's own record count (RETS `COUNT Records`, OData `@odata.count`): a whole number, 0 or more, or a
/// warning and ignored. Found by the `xml-rets` fuzz target: `<COUNT Records="-4">` became a negative declared
/// count (Fixtures/fuzz/xml-rets-negative-count.xml, the minimized input without the harness's option bytes).
@Suite struct ParseDeclaredCountTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/fuzz"))
        return try Array(Data(contentsOf: url))
    }

    /// The report after reading `bytes` whole (a document that fails still has its report up to the failure).
    static func report(_ bytes: [UInt8], _ settings: ParseSettings) -> ParseReport {
        let reader = makeRecordReader(settings: settings, source: "feed")
        try? reader.feed(bytes[...])
        try? reader.finish()
        _ = reader.takeRecords()
        return reader.report
    }

    static let structured: ParseSettings = {
        var xml = PlainXMLSettings()
        xml.recordElement = "REData/Listing"
        return ParseSettings(format: .xml(xml))
    }()

    static let json = ParseSettings(format: .resoJSON(ResoJSONSettings()))

    static func ignored(_ written: String, _ line: Int, _ column: Int) -> String {
        "\(written) at line \(line), column \(column) is not a number of records (a whole number, 0 or more); ignored"
    }

    @Test func theFuzzersNegativeCountIsAWarningAndIgnored() throws {
        let report = Self.report(try Self.fixture("xml-rets-negative-count.xml"), ParseFixture.rets)
        #expect(report.declaredCount == nil)
        #expect(report.warnings == [Self.ignored(#"COUNT Records="-4""#, 1, 7)])
    }

    @Test(arguments: [
        (#"<COUNT Records="-1"/>"#, nil, [ignored(#"COUNT Records="-1""#, 2, 1)]),
        (#"<COUNT Records="many"/>"#, nil, [ignored(#"COUNT Records="many""#, 2, 1)]),
        (#"<COUNT Records="1.5"/>"#, nil, [ignored(#"COUNT Records="1.5""#, 2, 1)]),
        (#"<COUNT Records="99999999999999999999"/>"#, nil,
         [ignored(#"COUNT Records="99999999999999999999""#, 2, 1)]),
        (#"<COUNT Records="12345678901234567890123456789012345678901234567890"/>"#, nil,
         [ignored(#"COUNT Records="1234567890123456789012345678901234567890…""#, 2, 1)]),
        (#"<COUNT Records=" 1 "/>"#, 1, []),
        (#"<COUNT Records="0"/>"#, 0, ["COUNT says 0 records but 1 DATA rows were read"]),
    ] as [(String, Int?, [String])])
    func retsCompactCount(count: String, declared: Int?, warnings: [String]) {
        let document = "<RETS ReplyCode=\"0\">\n\(count)<COLUMNS>\tA\t</COLUMNS><DATA>\t1\t</DATA></RETS>"
        let report = Self.report(Array(document.utf8), ParseFixture.rets)
        #expect(report.declaredCount == declared)
        #expect(report.warnings == warnings)
    }

    @Test(arguments: [
        (#"Records="-4""#, nil, [ignored(#"COUNT Records="-4""#, 2, 3)]),
        (#"Records="x""#, nil, [ignored(#"COUNT Records="x""#, 2, 3)]),
        (#"Records="2""#, 2, []),
    ] as [(String, Int?, [String])])
    func structuredXMLCount(records: String, declared: Int?, warnings: [String]) {
        let document = "<RETS ReplyCode=\"0\">\n  <COUNT \(records)/>\n  <REData><Listing><Id>1</Id></Listing>"
            + "<Listing><Id>2</Id></Listing></REData>\n</RETS>"
        let report = Self.report(Array(document.utf8), Self.structured)
        #expect(report.declaredCount == declared)
        #expect(report.warnings == warnings)
    }

    @Test(arguments: [
        ("-4", nil, [ignored("@odata.count -4", 1, 19)]),
        ("2.5", nil, [ignored("@odata.count 2.5", 1, 20)]),
        ("1e3", nil, [ignored("@odata.count 1e3", 1, 20)]),
        ("1", 1, []),
        // Servers also send it as a string: a numeric one counts, any other is named as written.
        (#""12""#, 12, []),
        (#"" 7 ""#, 7, []),
        (#""many""#, nil, [ignored(#"@odata.count "many""#, 1, 23)]),
        (#""""#, nil, [ignored(#"@odata.count """#, 1, 19)]),
    ] as [(String, Int?, [String])])
    func odataCount(count: String, declared: Int?, warnings: [String]) {
        let document = #"{"@odata.count": \#(count), "value": [{"ListingKey": "A"}]}"#
        let report = Self.report(Array(document.utf8), Self.json)
        #expect(report.declaredCount == declared)
        #expect(report.warnings == warnings)
    }

    /// An ignored count leaves the completeness check to the parts that gave one (the negative count used to be
    /// added in: `COUNT 6 > 3 rows read`).
    @Test func anIgnoredCountLeavesCompletenessToTheOtherParts() throws {
        let counted = "<RETS ReplyCode=\"0\"><COUNT Records=\"10\"/><COLUMNS>\tA\t</COLUMNS>"
            + "<DATA>\t1\t</DATA><DATA>\t2\t</DATA><DATA>\t3\t</DATA></RETS>"
        let first = Self.report(Array(counted.utf8), ParseFixture.rets)
        let second = Self.report(try Self.fixture("xml-rets-negative-count.xml"), ParseFixture.rets)
        let completeness = Completeness(parts: [
            Completeness.Part(name: "a.xml", records: 3, declaredCount: first.declaredCount),
            Completeness.Part(name: "b.xml", records: 0, declaredCount: second.declaredCount),
        ])
        #expect(completeness.summary == "COUNT 10 > 3 rows read")
    }
}
