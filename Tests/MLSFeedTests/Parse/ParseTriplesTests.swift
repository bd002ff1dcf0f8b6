import Foundation
import Testing
import MLSFeed

@Suite struct ParseTriplesTests {
    @Test func perRecordShapeDecodesEntitiesCDATAAndUnicode() throws {
        let (records, report) = try ParseFixture.read("triples-per-record.xml", ParseFixture.triples)
        #expect(records.count == 2)
        #expect(records[0].pairs == [
            "mls_number=230012345", "status=Active", "list_price=$549,000", "bedrooms=3",
            "public_remarks=Views of bay & ocean <wow> — café",
        ])
        #expect(records[0].place == "3:3")
        #expect(records[0].ordinal == 0 && records[0].defect == nil)
        #expect(records[1].pairs == [
            "mls_number=230012346", "status=Pending", "list_price=", "bedrooms=4",
            "public_remarks=Say \"hi\" & <b>bye</b> — 東京",
        ])
        #expect(records[1].place == "8:3" && records[1].ordinal == 1)
        #expect(report == ParseReport())
    }

    @Test func headerOnceShapeWithEmptySlotsAndMismatchRejects() throws {
        let (records, _) = try ParseFixture.read("triples-header-once.xml", ParseFixture.triples)
        #expect(records.map(\.pairs) == [
            ["mls_number=230012345", "status=Active", "list_price=$549,000", "bedrooms=3"],
            ["mls_number=230012346", "status=Pending", "list_price=", "bedrooms=4"],
            ["mls_number=230012347", "status=Sold", "list_price=$1,250,000", "bedrooms=5", "_extra_value_1=surplus"],
            ["mls_number=230012348", "status=Active", "list_price=$600,000"],
            ["mls_number=", "status=", "list_price=", "bedrooms="],
        ])
        #expect(records.map(\.defect) == [
            nil, nil,
            "values has 5 fields but keys has 4 (MLS 230012347)",
            "values has 3 fields but keys has 4 (MLS 230012348)",
            nil,
        ])
        #expect(records.map(\.place) == ["5:3", "6:3", "7:3", "8:3", "9:3"])
        #expect(records.map(\.ordinal) == [0, 1, 2, 3, 4])
    }

    @Test func customElementNamesAndDelimiter() throws {
        var triples = TriplesSettings()
        triples.recordElement = "agent"
        triples.keysElement = "names"
        triples.valuesElement = "data"
        triples.delimiter = "^"
        let (records, _) = try ParseFixture.read("triples-agents.xml", ParseSettings(format: .triples(triples)))
        #expect(records.map(\.pairs) == [
            ["agent_id=A100", "first_name=Jane", "last_name=Doe"],
            ["agent_id=A101", "first_name=José", "last_name=Núñez"],
        ])
    }

    @Test func multiByteDelimiter() throws {
        var triples = TriplesSettings()
        triples.delimiter = "||"
        let document = "<d><keys>a||b||c</keys><listing><values>1||||3|x</values></listing></d>"
        let settings = ParseSettings(format: .triples(triples))
        let (records, _) = try ParseFixture.read(Array(document.utf8), settings: settings, source: "-")
        #expect(records.map(\.pairs) == [["a=1", "b=", "c=3|x"]])
    }

    @Test(arguments: [
        ("triples-no-keys.xml",
         "triples-no-keys.xml:4:3: error: listing has values but no keys (neither inside it nor before it)"),
        ("triples-truncated.xml", "triples-truncated.xml:6:1: error: Premature end of data in tag values line 5"),
        ("triples-mismatched-tag.xml",
         "triples-mismatched-tag.xml:4:44: error: Opening and ending tag mismatch: values line 4 and value"),
        ("triples-latin1.xml",
         "triples-latin1.xml:4:35: error: Input is not proper UTF-8, indicate encoding ! Bytes: 0xF1 0x61 0x64 0x61"),
        ("triples-control.xml", "triples-control.xml:4:34: error: PCDATA invalid Char value 11"),
        ("triples-billion-laughs.xml",
         "triples-billion-laughs.xml:3:3: error: entity declarations are not allowed (entity \"lol\")"),
    ])
    func badInputFailsWithFileLineAndColumn(file: String, message: String) throws {
        for chunk in [1, 7, nil] as [Int?] {
            #expect(try ParseFixture.error(file, ParseFixture.triples, chunk: chunk) == message)
        }
    }

    @Test func encodingOverrideReadsMislabeledLatin1() throws {
        var settings = ParseFixture.triples
        settings.encoding = "ISO-8859-1"
        let (records, _) = try ParseFixture.read("triples-latin1.xml", settings)
        #expect(records.map(\.pairs) == [["mls_number=230012345", "city=La Cañada Flintridge"]])
    }

    @Test func sanitizeRemovesControlCharactersAndCountsThem() throws {
        var settings = ParseFixture.triples
        settings.sanitize = true
        for chunk in [1, 7, nil] as [Int?] {
            let (records, report) = try ParseFixture.read("triples-control.xml", settings, chunk: chunk)
            #expect(records.map(\.pairs) == [["mls_number=230012345", "public_remarks=Nicehome!"]])
            #expect(report.sanitizedCharacters == 2)
        }
    }

    @Test func valuesOutsideARecordAreAnError() throws {
        let document = Array("<d>\n<keys>a</keys><values>1</values></d>".utf8)
        #expect(throws: InputError("values element outside a listing element",
                                   at: SourcePosition(file: "-", line: 2, column: 15))) {
            _ = try ParseFixture.read(document, settings: ParseFixture.triples, source: "-")
        }
    }

    @Test func recordWithoutValuesIsADefect() throws {
        let document = Array("<d><keys>a</keys><listing/></d>".utf8)
        let (records, _) = try ParseFixture.read(document, settings: ParseFixture.triples, source: "-")
        #expect(records.map(\.defect) == ["listing has no values element"])
    }
}
