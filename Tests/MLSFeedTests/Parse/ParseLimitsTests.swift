import Foundation
import Testing
@testable import MLSFeed

/// The readers' limits refuse instead of crashing or growing: nesting deeper than `format.max_depth` fails the input
/// at its start tag, a record over `format.max_record_bytes` in any format is a defect whose bytes were never
/// gathered, and a JSON object with a key twice rejects its record.
@Suite struct ParseLimitsTests {
    /// A shipped pipeline's settings and mapping, and its sample's bytes.
    static func shipped(_ name: String) throws -> (config: PipelineConfig, sample: String) {
        let config = try PipelineConfig.load(path: CLI.packageRoot.appendingPathComponent("pipelines/\(name)").path,
                                             project: ProjectConfig(), environment: [:])
        let sample = CLI.packageRoot.appendingPathComponent("pipelines/data/" + name.replacing(".yaml", with: ".xml"))
        return (config, try String(contentsOf: sample, encoding: .utf8))
    }

    /// `document` with a line of `levels` nested `<x>` elements inserted after the line of the first `<record`;
    /// and the number of that inserted line.
    static func nesting(_ levels: Int, in document: String, after record: String) throws -> (String, Int) {
        let start = try #require(document.range(of: "<" + record))
        let lineEnd = try #require(document[start.upperBound...].firstIndex(of: "\n"))
        let line = document[..<lineEnd].count(where: { $0 == "\n" }) + 2
        let deep = String(repeating: "<x>", count: levels) + "deep" + String(repeating: "</x>", count: levels)
        return (String(document[...lineEnd]) + deep + String(document[lineEnd...]), line)
    }

    /// 16,000 and 20,000 levels inside a record of each shipped nested pipeline (the deeper crashed the process,
    /// no message, the lesser parsed and walked them all) fail the input at the start tag of the 257th level.
    @Test(arguments: [("syndication.yaml", "Listing>", 2), ("crea-ddf.yaml", "PropertyDetails ", 3),
                      ("rets-standard-xml.yaml", "PropertyListing>", 5)], [16_000, 20_000])
    func deepNestingInARecordFailsAtTheStartTagThatCrossesTheBound(pipeline: (String, String, Int),
                                                                  levels: Int) throws {
        let (name, record, recordDepth) = pipeline
        let (config, sample) = try Self.shipped(name)
        let (document, line) = try Self.nesting(levels, in: sample, after: record)
        // The record is at `recordDepth`; the inserted elements follow it, 3 columns each.
        let column = 1 + 3 * (ParseSettings.defaultMaxDepth - recordDepth)
        for chunk in [4096, nil] as [Int?] {
            #expect(throws: InputError("nesting deeper than 256", at: SourcePosition(file: name, line: line,
                                                                                    column: column))) {
                _ = try ParseFixture.read(Array(document.utf8), settings: config.parse, source: name,
                                          mapping: config.mapping, chunk: chunk)
            }
        }
    }

    /// `format.max_depth` moves the bound, for XML and JSON alike: the root is level 1.
    @Test func maxDepthBoundsXMLAndJSONNesting() throws {
        let xml = "<feed><listing><a><b>1</b></a></listing></feed>"
        var settings = ParseFixture.xml
        settings.maxDepth = 4
        #expect(try ParseFixture.read(Array(xml.utf8), settings: settings, source: "d.xml").records.count == 1)
        settings.maxDepth = 3
        #expect(throws: InputError("nesting deeper than 3", at: SourcePosition(file: "d.xml", line: 1, column: 19))) {
            _ = try ParseFixture.read(Array(xml.utf8), settings: settings, source: "d.xml")
        }
        let json = #"{"value": [{"ListingKey": "A", "Media": [{"URL": "u"}]}]}"#
        var jsonSettings = ParseSettings(format: .resoJSON(ResoJSONSettings()))
        jsonSettings.maxDepth = 5
        #expect(try ParseFixture.read(Array(json.utf8), settings: jsonSettings, source: "d.json").records.count == 1)
        jsonSettings.maxDepth = 4
        #expect(throws: InputError("nesting deeper than 4 levels",
                                   at: SourcePosition(file: "d.json", line: 1, column: 42))) {
            _ = try ParseFixture.read(Array(json.utf8), settings: jsonSettings, source: "d.json")
        }
        // By default 256, for JSON too (it was 64): 20,000 levels fail at the 257th.
        let deep = #"{"value": [{"ListingKey": "A", "x": "# + String(repeating: "[", count: 20_000)
        #expect(throws: InputError("nesting deeper than 256 levels",
                                   at: SourcePosition(file: "d.json", line: 1, column: 36 + 254))) {
            _ = try ParseFixture.read(Array(deep.utf8), settings: ParseSettings(format: .resoJSON(ResoJSONSettings())),
                                      source: "d.json")
        }
    }

    /// Feeds `document` in 64 KiB chunks; returns the records and the most bytes the reader held after a chunk.
    static func readHolding(_ document: [UInt8], settings: ParseSettings,
                            mapping: Mapping? = nil) throws -> (records: [RawRecord], held: Int) {
        var mapping = mapping
        if mapping == nil, case .triples = settings.format { mapping = ParseFixture.servletKey }
        let reader = makeRecordReader(settings: settings, source: "big.xml", mapping: mapping)
        var records: [RawRecord] = []
        var held = 0
        var offset = 0
        while offset < document.count {
            try reader.feed(document[offset..<min(document.count, offset + (64 << 10))])
            held = max(held, reader.heldBytes)
            records += reader.takeRecords()
            offset += 64 << 10
        }
        try reader.finish()
        return (records + reader.takeRecords(), held)
    }

    /// 8 MiB in a record, with `max_record_bytes` at 1 MiB, in each format (one value; in JSON, whose single
    /// value may not exceed the bound, nine): the record is a defect naming the bound, the next one reads, and the
    /// reader never held much more than the bound: the bytes were dropped as they came, not gathered whole first.
    /// (A triples value of 1 GB was read whole, and the record loaded: it peaked at 2 GB.)
    @Test(arguments: ["triples", "rets-compact", "xml", "reso-json"])
    func aRecordOverMaxRecordBytesIsADefectNeverGatheredWhole(format: String) throws {
        let big = String(repeating: "x", count: 8 << 20)
        let document: String
        var settings: ParseSettings
        var mapping: Mapping?
        switch format {
        case "triples":
            document = "<dump><keys>mls_number|remarks</keys><listing><values>1|\(big)</values></listing>"
                + "<listing><values>2|short</values></listing></dump>"
            settings = ParseFixture.triples
        case "rets-compact":
            document = "<RETS ReplyCode=\"0\"><COLUMNS>\tLIST_1\tREMARKS\t</COLUMNS><DATA>\t1\t\(big)\t</DATA>"
                + "<DATA>\t2\tshort\t</DATA></RETS>"
            settings = ParseFixture.rets
        case "xml":
            document = "<feed><listing><Id>1</Id><Remarks>\(big)</Remarks></listing>"
                + "<listing><Id>2</Id><Remarks>short</Remarks></listing></feed>"
            settings = ParseFixture.xml
            mapping = Mapping(entity: .listing, fields: [FieldMapping(name: "listing_id", sources: ["Id"],
                                                                      type: .text)])
        default:
            let values = (1...9).map { #""R\#($0)": "\#(String(repeating: "x", count: 900_000))""# }
            document = #"[{"Id": "1", \#(values.joined(separator: ", "))}, {"Id": "2", "Remarks": "short"}]"#
            settings = ParseSettings(format: .resoJSON(ResoJSONSettings()))
            mapping = Mapping(entity: .listing, fields: [FieldMapping(name: "listing_id", sources: ["Id"],
                                                                      type: .text)])
        }
        settings.maxRecordBytes = 1 << 20
        let (records, held) = try Self.readHolding(Array(document.utf8), settings: settings, mapping: mapping)
        #expect(records.map(\.defect) == ["record is larger than format.max_record_bytes (1048576 bytes)", nil])
        #expect(records.map(\.ordinal) == [0, 1])
        #expect(records.last?.fields.contains { $0.value == "2" } == true, "\(records.last?.pairs ?? [])")
        #expect(held <= (1 << 20) + (256 << 10), "held \(held) bytes")
    }

    /// A list that records need (a header's `keys`, RETS `COLUMNS`) longer than the bound fails the input at its
    /// start tag: no record after it could be read.
    @Test func aHeaderListOverMaxRecordBytesFailsTheInput() throws {
        let keys = String(repeating: "k|", count: 700_000)
        var triples = ParseFixture.triples
        triples.maxRecordBytes = 1 << 20
        #expect(throws: InputError("keys is larger than format.max_record_bytes (1048576 bytes)",
                                   at: SourcePosition(file: "big.xml", line: 1, column: 7))) {
            _ = try Self.readHolding(Array("<dump><keys>\(keys)</keys></dump>".utf8), settings: triples)
        }
        var rets = ParseFixture.rets
        rets.maxRecordBytes = 1 << 20
        let columns = String(repeating: "\tC", count: 700_000)
        #expect(throws: InputError("COLUMNS is larger than format.max_record_bytes (1048576 bytes)",
                                   at: SourcePosition(file: "big.xml", line: 1, column: 21))) {
            _ = try Self.readHolding(Array("<RETS ReplyCode=\"0\"><COLUMNS>\(columns)</COLUMNS></RETS>".utf8),
                                     settings: rets)
        }
    }

    static let jsonMapping = Mapping(entity: .listing, fields: [
        FieldMapping(name: "listing_id", sources: ["ListingKey"], type: .text),
        FieldMapping(name: "list_price", sources: ["ListPrice"], type: .money),
    ])

    /// A key twice in one object (the record's or any inside it) rejects the record, naming the key, its fields
    /// kept; the same key in different objects is no duplicate. (The first value won silently: ListPrice 1.00.)
    @Test(arguments: [
        (#"{"ListingKey": "A", "ListPrice": "1.00", "StandardStatus": "Closed", "ListPrice": 549000}"#,
         "duplicate key ListPrice"),
        (#"{"ListingKey": "A", "ListAgent": {"MemberMlsId": "X", "MemberMlsId": "Y"}, "ListPrice": 1}"#,
         "duplicate key MemberMlsId"),
        (#"{"ListingKey": "A", "Media": [{"URL": "a"}], "Note": {"URL": "b", "Media": 1}, "Media": []}"#,
         "duplicate key Media"),
        (#"{"ListingKey": "A", "ListAgent": {"ListPrice": 2}, "ListPrice": 1, "B": {"ListPrice": 3}}"#, nil),
        (#"{"ListingKey": "A", "Media": [{"URL": "a"}, {"URL": "b"}], "ListPrice": 1}"#, nil),
    ] as [(String, String?)])
    func aJSONKeyTwiceInOneObjectRejectsTheRecord(record: String, defect: String?) throws {
        let document = "{\"value\": [\(record), {\"ListingKey\": \"B\", \"ListPrice\": 2}]}"
        for chunk in [5, nil] as [Int?] {
            let (records, _) = try ParseFixture.read(Array(document.utf8),
                                                     settings: ParseSettings(format: .resoJSON(ResoJSONSettings())),
                                                     source: "dup.json", mapping: Self.jsonMapping, chunk: chunk)
            #expect(records.map(\.defect) == [defect, nil])
            #expect(records.first?.fields.first == RawField("ListingKey", "A"))
            #expect(records.first?.tree != nil)
        }
    }
}
