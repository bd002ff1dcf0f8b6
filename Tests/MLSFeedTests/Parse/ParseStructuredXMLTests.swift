import Foundation
import Testing
@testable import MLSFeed

/// `format: xml`: records picked by the mapping's paths, the rest kept as structured JSON in `extra`.
@Suite struct ParseStructuredXMLTests {
    /// A listing mapping whose fields read `paths` (all as text).
    static func mapping(_ paths: [(String, [String])], agents: [EmbeddedMapping] = []) -> Mapping {
        Mapping(entity: .listing, fields: paths.map { FieldMapping(name: $0.0, sources: $0.1, type: .text) },
                embedded: agents)
    }

    static func extra(_ record: RawRecord) -> String {
        String(decoding: record.extraJSON ?? [], as: UTF8.self)
    }

    @Test func aPlainNameReadsAChildOrElseAnAttributeOfTheRecord() throws {
        var plain = PlainXMLSettings()
        plain.recordElement = "location"
        let mapping = Self.mapping([("listing_id", ["name"]), ("latitude", ["lat"]), ("longitude", ["lon"])])
        let (records, _) = try ParseFixture.read("plain-locations.xml", ParseSettings(format: .xml(plain)),
                                                 mapping: mapping)
        #expect(records.map(\.pairs) == [["name=Peets & Co", "lat=37.33", "lon=-122.03"],
                                         ["name=Café Ñ", "lat=32.75", "lon=-117.16"]])
        #expect(records.map(Self.extra) == [#"{"@d":"0.07"}"#, #"{"@d":"1.5"}"#])
        #expect(records.map(\.place) == ["3:3", "4:3"])
    }

    /// A CDATA section with bytes that are not UTF-8 (libxml2 passes them through): `extra` is still JSON, the bad
    /// bytes U+FFFD (found by the xml-plain fuzz target).
    @Test func cdataThatIsNotUTF8StillGivesJSON() throws {
        let xml = Array(#"<?xml version="1.0" encoding="UTF-8"?><listings><listing><remarks><![CDATA[a "#.utf8)
            + [0xC2, 0x9D, 0xC1, 0x9D] + Array("old]]></remarks></listing></listings>".utf8)
        let (records, _) = try ParseFixture.read(xml, settings: ParseFixture.xml, source: "bad.xml")
        try #require(records.count == 1)
        let json = try #require(records[0].extraJSON)
        let object = try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any]
        #expect(object?["remarks"] as? String == "a \u{9D}\u{FFFD}\u{FFFD}old")
    }

    @Test func unmappedContentKeepsItsShape() throws {
        let mapping = Self.mapping([("listing_id", ["ListingId"]), ("list_price", ["ListPrice"]),
                                    ("public_remarks", ["Remarks"])])
        let (records, _) = try ParseFixture.read("plain-listings.xml", ParseFixture.xml, mapping: mapping)
        #expect(records.map(\.pairs) == [
            ["ListingId=230012345", "ListPrice=549000", "Remarks=Big & <bright> é"],
            ["ListingId=230012346"],
        ])
        #expect(records.map(Self.extra) == [
            #"{"@status":"Active","Feature":["Pool","Spa"],"Unit":""}"#,
            ##"{"Price":{"@currency":"USD","#text":"600000"}}"##,
        ])
        #expect(records.map(\.ordinal) == [0, 1])
        #expect(records.map(\.place) == ["4:3", "12:3"])
    }

    /// Children of one name anywhere among many siblings make one array, at the place of the first of them.
    @Test func repeatedChildrenAmongManyGroupAtTheirFirstAppearance() throws {
        let children = ["a", "b", "a", "c", "b", "a", "d", "e", "f", "g", "h", "i", "j", "a", "k"]
        let body = children.enumerated().map { "<\($1)>\($0)</\($1)>" }.joined()
        let xml = "<listings><listing><ListingId>L1</ListingId>\(body)</listing></listings>"
        let (records, _) = try ParseFixture.read(Array(xml.utf8), settings: ParseFixture.xml, source: "many.xml",
                                                 mapping: Self.mapping([("listing_id", ["ListingId"])]))
        #expect(records.map(Self.extra) == [
            #"{"a":["0","2","5","13"],"b":["1","4"],"c":"3","d":"6","e":"7","f":"8","g":"9","h":"10","i":"11","#
                + #""j":"12","k":"14"}"#,
        ])
    }

    static let nested = """
        <?xml version="1.0"?>
        <Listings xmlns="urn:syndication" xmlns:rc="http://rets.org/xsd/RETSCommons" xmlns:o="urn:other">
          <Listing ID="L1">
            <Address><o:City>Wrong Town</o:City><rc:City>San Diego</rc:City></Address>
            <Phones><Phone type="Fax">1</Phone><Phone type="Telephone">2</Phone></Phones>
            <Participant><Id>A1</Id><Role>Listing</Role><Extra>x</Extra></Participant>
            <Participant><Id>B2</Id><Role>Buyer</Role></Participant>
            <Note>first</Note><Note>second</Note>
          </Listing>
          <Listing ID="L2"><Note>only</Note></Listing>
        </Listings>
        """

    static func nestedSettings() -> ParseSettings {
        var xml = PlainXMLSettings()
        xml.recordElement = "Listings/Listing"
        xml.namespaces = ["commons": "http://rets.org/xsd/RETSCommons"]
        return ParseSettings(format: .xml(xml))
    }

    static let nestedMapping = mapping(
        [("listing_id", ["@ID"]), ("city", ["Address/commons:City"]), ("county_or_parish", ["Address/City"]),
         ("public_remarks", ["Note"]), ("directions", ["Phones/Phone[@type='Telephone']"]),
         ("owner_name", ["Nowhere/Else"])],
        agents: [EmbeddedMapping(each: "Participant", conditions: [.init(path: "Role", value: "listing")],
                              link: "list_agent_mls_id",
                              fields: [FieldMapping(name: "agent_mls_id", sources: ["Id"], type: .text)])])

    @Test func pathsPickByNamespaceAttributeAndPredicateAndEachElementIsAChild() throws {
        let (records, report) = try ParseFixture.read(Array(Self.nested.utf8), settings: Self.nestedSettings(),
                                                      source: "n.xml", mapping: Self.nestedMapping)
        #expect(records.map(\.pairs) == [
            ["@ID=L1", "Address/commons:City=San Diego", "Address/City=Wrong Town", "Note=first",
             "Phones/Phone[@type='Telephone']=2"],
            ["@ID=L2", "Note=only"],
        ])
        #expect(records[0].children == [RawChild(mapping: 0, fields: [RawField("Id", "A1")],
                                                 extraJSON: Array(#"{"Role":"Listing","Extra":"x"}"#.utf8))])
        // Both cities were read (the unprefixed step matched the first in any namespace): Address is gone.
        #expect(Self.extra(records[0]) == ##"{"Phones":{"Phone":[{"@type":"Fax","#text":"1"},{"@type":"Telephone"}]},"##
            + ##""Participant":{"Id":"B2","Role":"Buyer"},"Note":"second"}"##)
        #expect(report.pathMatches["Note"] == PathMatches(records: 2, repeated: 1))
        #expect(report.pathMatches["Address/City"] == PathMatches(records: 1, repeated: 1))
        #expect(report.pathMatches["Nowhere/Else"] == PathMatches(records: 0, repeated: 0))
        #expect(PathWarnings.lines(mapping: Self.nestedMapping, matches: report.pathMatches, records: 2) == [
            #"mapping field county_or_parish: "Address/City" matched more than once in 1 records; the first match "#
                + "was taken",
            #"mapping field public_remarks: "Note" matched more than once in 1 records; the first match was taken"#,
            #"mapping field owner_name: "Nowhere/Else" matched nothing in 2 records"#,
        ])
    }

    /// `where` compares the trimmed text ignoring case: ASCII byte by byte, anything else as Unicode strings (the
    /// same answers either way), for an element's text and for an attribute.
    @Test(arguments: [
        ("Listing", "Listing", true), (" \t listing\r\n", "Listing", true), ("LISTING", "listing", true),
        ("Listings", "Listing", false), ("List ing", "Listing", false), ("", "Listing", false),
        ("Listing", "", false), ("  ", "", true), ("Co-Listing", "co-listing", true), ("Listing", "Co-Listing", false),
        ("\u{A0}Listing\u{2003}", "Listing", true), ("\u{212A}ey", "key", true), ("Cö-Listing", "CÖ-LISTING", true),
        ("Co-Listing", "Cö-Listing", false), ("List<x/>ing", "listing", true),
    ])
    func whereComparesTrimmedTextIgnoringCase(text: String, value: String, admitted: Bool) throws {
        let markup = text.contains("<")  // no attribute then
        for path in markup ? ["Role"] : ["Role", "@role"] {
            let xml = #"<Listings><Listing ID="L1"><Participant role="\#(markup ? "" : text)"><Id>A1</Id>"#
                + "<Role>\(text)</Role></Participant></Listing></Listings>"
            let mapping = Self.mapping(
                [("listing_id", ["@ID"])],
                agents: [EmbeddedMapping(each: "Participant", conditions: [.init(path: path, value: value)],
                                      link: "list_agent_mls_id",
                                      fields: [FieldMapping(name: "agent_mls_id", sources: ["Id"], type: .text)])])
            let (records, _) = try ParseFixture.read(Array(xml.utf8), settings: Self.nestedSettings(),
                                                     source: "w.xml", mapping: mapping)
            try #require(records.count == 1)
            #expect(records[0].children.map(\.fields) == (admitted ? [[RawField("Id", "A1")]] : []), "\(path)")
        }
    }

    @Test(arguments: [1, 7, 64])
    func chunkBoundariesChangeNothing(chunk: Int) throws {
        let whole = try ParseFixture.read(Array(Self.nested.utf8), settings: Self.nestedSettings(), source: "n.xml",
                                          mapping: Self.nestedMapping)
        let pieces = try ParseFixture.read(Array(Self.nested.utf8), settings: Self.nestedSettings(), source: "n.xml",
                                           mapping: Self.nestedMapping, chunk: chunk)
        #expect(pieces.records == whole.records)
        #expect(pieces.records.map(Self.extra) == whole.records.map(Self.extra))
        #expect(pieces.records.map(\.place) == ["3:3", "10:3"])
    }

    /// Every chunk ends inside a record (as a 1 MiB chunk of a real feed nearly always does): full batches still
    /// go out between records, so records arrive while the document is read and the parser holds at most a few
    /// batches, not the whole document.
    @Test func recordsArriveBeforeTheEndWhenEveryChunkEndsInsideARecord() throws {
        let count = 1000
        var document = "<Listings>"
        var cuts: [Int] = []
        for index in 0..<count {
            let record = "<Listing><ListingId>\(index)</ListingId><Remarks>r\(index)</Remarks></Listing>"
            cuts.append(document.utf8.count + record.utf8.count / 2)
            document += record
        }
        let bytes = Array((document + "</Listings>").utf8)
        var xml = PlainXMLSettings()
        xml.recordElement = "Listings/Listing"
        let reader = makeRecordReader(settings: ParseSettings(format: .xml(xml)), source: "l.xml",
                                      mapping: Self.mapping([("listing_id", ["ListingId"])]))
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

    @Test func aRecordOverTheSizeLimitIsADefectAndTheNextOneReads() throws {
        let xml = PlainXMLSettings()
        let big = String(repeating: "<Note>" + String(repeating: "x", count: 100) + "</Note>", count: 20)
        let document = "<feed><listing><ListingId>1</ListingId>\(big)</listing>"
            + "<listing><ListingId>2</ListingId></listing></feed>"
        let (records, _) = try ParseFixture.read(Array(document.utf8),
                                                 settings: ParseSettings(format: .xml(xml), maxRecordBytes: 1024),
                                                 source: "big.xml",
                                                 mapping: Self.mapping([("listing_id", ["ListingId"])]), chunk: 100)
        #expect(records.map(\.defect) == ["record is larger than format.max_record_bytes (1024 bytes)", nil])
        #expect(records.map(\.place) == ["1:7", "1:2310"])
        #expect(records[1].pairs == ["ListingId=2"])
    }

    @Test func aRETSErrorReplyInStandardXMLFailsWithItsText() throws {
        let document = #"<RETS ReplyCode="20203" ReplyText="Invalid class"><REData/></RETS>"#
        var xml = PlainXMLSettings()
        xml.recordElement = "PropertyListing"
        #expect(throws: InputError("RETS reply code 20203: Invalid class",
                                   at: SourcePosition(file: "r.xml", line: 1, column: 1))) {
            _ = try ParseFixture.read(Array(document.utf8), settings: ParseSettings(format: .xml(xml)),
                                      source: "r.xml")
        }
    }
}
