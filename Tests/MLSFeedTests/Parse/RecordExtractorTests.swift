import Foundation
import Testing
@testable import MLSFeed

/// Paths that start above where they are read from (`..`) and read an element's name (`name()`): a repeated
/// element's record and its siblings, and the name and attributes of the elements around a record.
@Suite struct RecordExtractorTests {
    /// A RETS STANDARD-XML reply: the property class is the name of the record's parent, a version an attribute of
    /// an element around the records.
    static let standardXML = """
        <RETS ReplyCode="0" ReplyText="Operation Successful">
          <COUNT Records="3"/>
          <REData><REProperties version="1.7">
            <Residential id="R">
              <PropertyListing><Listing><ListingID>SX-1</ListingID></Listing></PropertyListing>
              <PropertyListing><Listing><ListingID>SX-2</ListingID></Listing></PropertyListing>
            </Residential>
            <Commercial>
              <PropertyListing><Listing><ListingID>SX-3</ListingID></Listing></PropertyListing>
            </Commercial>
          </REProperties></REData>
        </RETS>
        """

    static func settings(_ record: String) -> ParseSettings {
        var xml = PlainXMLSettings()
        xml.recordElement = record
        return ParseSettings(format: .xml(xml))
    }

    static let classMapping = Mapping(entity: .listing, fields: [
        FieldMapping(name: "listing_id", sources: ["Listing/ListingID"], type: .text),
        FieldMapping(name: "property_type", sources: ["../name()"], type: .text),
        FieldMapping(name: "mls_area", sources: ["../@id"], type: .text),
        FieldMapping(name: "public_remarks", sources: ["../../@version"], type: .text),
        FieldMapping(name: "owner_name", sources: ["name()"], type: .text),
        FieldMapping(name: "directions", sources: ["../../../../@ReplyCode"], type: .text),
        FieldMapping(name: "city", sources: ["../../../../../name()"], type: .text),
    ])

    @Test(arguments: [nil, 1, 7, 64])
    func theClassIsTheNameOfTheRecordsParent(chunk: Int?) throws {
        let (records, report) = try ParseFixture.read(Array(Self.standardXML.utf8),
                                                      settings: Self.settings("REProperties/*/PropertyListing"),
                                                      source: "s.xml", mapping: Self.classMapping, chunk: chunk)
        #expect(records.map(\.pairs) == [
            ["Listing/ListingID=SX-1", "../name()=Residential", "../@id=R", "../../@version=1.7",
             "name()=PropertyListing", "../../../../@ReplyCode=0"],
            ["Listing/ListingID=SX-2", "../name()=Residential", "../@id=R", "../../@version=1.7",
             "name()=PropertyListing", "../../../../@ReplyCode=0"],
            ["Listing/ListingID=SX-3", "../name()=Commercial", "../../@version=1.7", "name()=PropertyListing",
             "../../../../@ReplyCode=0"],
        ])
        // Above the document's root there is nothing: the path matched no record.
        #expect(report.pathMatches["../../../../../name()"] == PathMatches(records: 0, repeated: 0))
        #expect(report.pathMatches["../name()"] == PathMatches(records: 3, repeated: 0))
        // What was read around the record is not the record's: its extra is as before.
        #expect(records.map { String(decoding: $0.extraJSON ?? [], as: UTF8.self) } == ["{}", "{}", "{}"])
    }

    /// The ancestors go with each record across batches: a batch ends in the middle of a class.
    @Test func ancestorsFollowTheirRecordsAcrossBatches() throws {
        let count = StructuredXMLHandler.batchRecords + 60
        func listings(_ range: Range<Int>) -> String {
            range.map { "<PropertyListing><Listing><ListingID>\($0)</ListingID></Listing></PropertyListing>" }
                .joined()
        }
        let xml = "<RETS><REData><REProperties><Residential>\(listings(0..<200))</Residential><Commercial>"
            + "\(listings(200..<count))</Commercial></REProperties></REData></RETS>"
        let (records, _) = try ParseFixture.read(Array(xml.utf8),
                                                 settings: Self.settings("REProperties/*/PropertyListing"),
                                                 source: "b.xml", mapping: Self.classMapping, chunk: 4096)
        #expect(records.count == count)
        #expect(records.map { $0.value("../name()") } == (0..<count).map { $0 < 200 ? "Residential" : "Commercial" })
    }

    /// A syndication listing: each participant's office is its listing's `Offices/Office`, a sibling of the
    /// participants, read from the participant through its record.
    static let syndication = """
        <Listings xmlns="http://rets.org/xsd/Syndication/2012-03" version="0.96">
          <Listing>
            <MlsNumber>260100001</MlsNumber>
            <ListingParticipants>
              <Participant><ParticipantId>SDA1001</ParticipantId><Role>Listing</Role></Participant>
              <Participant><ParticipantId>SDA2002</ParticipantId><Role>Co-Listing</Role></Participant>
            </ListingParticipants>
            <Offices><Office><OfficeId>SDO118</OfficeId><Name>Bayside Realty</Name></Office></Offices>
          </Listing>
          <Listing><MlsNumber>260100002</MlsNumber>
            <ListingParticipants><Participant><ParticipantId>SDA4004</ParticipantId></Participant></ListingParticipants>
          </Listing>
        </Listings>
        """

    static let officeMapping = Mapping(
        entity: .listing,
        fields: [FieldMapping(name: "listing_id", sources: ["MlsNumber"], type: .text)],
        embedded: [EmbeddedMapping(each: "ListingParticipants/Participant", fields: [
            FieldMapping(name: "agent_mls_id", sources: ["ParticipantId"], type: .text),
            FieldMapping(name: "office_mls_id", sources: ["../../Offices/Office/OfficeId"], type: .text),
            FieldMapping(name: "office_name", sources: ["../../Offices/Office/Name"], type: .text),
            FieldMapping(name: "full_name", sources: ["../../MlsNumber"], type: .text),
            FieldMapping(name: "first_name", sources: ["../name()"], type: .text),
            FieldMapping(name: "last_name", sources: ["../../../@version"], type: .text),
        ])])

    @Test(arguments: [nil, 5, 64])
    func aParticipantReadsItsListingsOffice(chunk: Int?) throws {
        let (records, _) = try ParseFixture.read(Array(Self.syndication.utf8),
                                                 settings: Self.settings("Listings/Listing"), source: "syn.xml",
                                                 mapping: Self.officeMapping, chunk: chunk)
        #expect(records.map { $0.children.map(\.fields).map { $0.map { "\($0.key)=\($0.value)" } } } == [
            [["ParticipantId=SDA1001", "../../Offices/Office/OfficeId=SDO118",
              "../../Offices/Office/Name=Bayside Realty", "../../MlsNumber=260100001", "../name()=ListingParticipants",
              "../../../@version=0.96"],
             ["ParticipantId=SDA2002", "../../Offices/Office/OfficeId=SDO118",
              "../../Offices/Office/Name=Bayside Realty", "../../MlsNumber=260100001", "../name()=ListingParticipants",
              "../../../@version=0.96"]],
            [["ParticipantId=SDA4004", "../../MlsNumber=260100002", "../name()=ListingParticipants",
              "../../../@version=0.96"]],
        ])
        // The participants' reads take nothing from the listing: its offices and number stay where they are.
        #expect(records.map(\.pairs) == [["MlsNumber=260100001"], ["MlsNumber=260100002"]])
        #expect(String(decoding: records[0].extraJSON ?? [], as: UTF8.self)
            == #"{"Offices":{"Office":{"OfficeId":"SDO118","Name":"Bayside Realty"}}}"#)
        #expect(records[0].children.map { String(decoding: $0.extraJSON, as: UTF8.self) }
            == [#"{"Role":"Listing"}"#, #"{"Role":"Co-Listing"}"#])
    }

    /// RESO JSON: an expanded member reads its listing's fields through `..`; a record has nothing around it.
    @Test func jsonRecordsReadUpwardsWithinTheRecordOnly() throws {
        let json = #"{"value": [{"ListingKey": "K1", "ListOfficeName": "Hill Country", "#
            + #""Agents": [{"MemberMlsId": "A1"}, {"MemberMlsId": "A2"}]}]}"#
        let mapping = Mapping(
            entity: .listing,
            fields: [FieldMapping(name: "listing_id", sources: ["ListingKey"], type: .text),
                     FieldMapping(name: "city", sources: ["../name()"], type: .text)],
            embedded: [EmbeddedMapping(each: "Agents", fields: [
                FieldMapping(name: "agent_mls_id", sources: ["MemberMlsId"], type: .text),
                FieldMapping(name: "office_name", sources: ["../ListOfficeName"], type: .text),
            ])])
        let (records, report) = try ParseFixture.read(Array(json.utf8),
                                                      settings: ParseSettings(format: .resoJSON(ResoJSONSettings())),
                                                      source: "r.json", mapping: mapping)
        #expect(records.map(\.pairs) == [["ListingKey=K1"]])
        #expect(records[0].children.map(\.fields) == [
            [RawField("MemberMlsId", "A1"), RawField("../ListOfficeName", "Hill Country")],
            [RawField("MemberMlsId", "A2"), RawField("../ListOfficeName", "Hill Country")],
        ])
        #expect(report.pathMatches["../name()"] == PathMatches(records: 0, repeated: 0))
    }
}
