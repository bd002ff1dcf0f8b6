import Foundation
import Testing
@testable import MLSFeed

/// `format: xml`: records picked by the mapping's paths, the rest kept as structured JSON in `extra`.
@Suite struct ParseStructuredXMLTests {
    /// A listing mapping whose fields read `paths` (all as text).
    static func mapping(_ paths: [(String, [String])], agents: [AgentMapping] = []) -> Mapping {
        Mapping(entity: .listing, fields: paths.map { FieldMapping(name: $0.0, sources: $0.1, type: .text) },
                embeddedAgents: agents)
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
}
