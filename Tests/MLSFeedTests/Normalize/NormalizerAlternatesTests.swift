import Foundation
import Testing
@testable import MLSFeed
import YAMLConfig

/// Nothing lost: a value a field passed over for an earlier source (an unchosen `from:` alternate, or the repeat of
/// a key) goes to `extra` under its own key, unless another field took it.
@Suite struct NormalizerAlternatesTests {
    static let yaml = """
        entity: listing
        fields:
          listing_id: { from: [ListingId, ListingKey], type: text, required: true }
          list_price: { from: [ListPrice, Price], type: money }
          listing_key: { from: Key2, type: text }
          city: { from: [City, Town, ../name()], type: text }
          list_agent_mls_id: { from: ListAgentMlsId, type: text }
        embedded_agent:
          agent_mls_id: { from: [ListAgent/MemberMlsId, ListAgentMlsId], type: text }
          email: { from: [ListAgent/MemberEmail, ListAgentEmail], type: email }
        """

    static func mapping(_ text: String = yaml) throws -> Mapping {
        try Mapping(config: ConfigNode(YAMLDocument.parse(text, file: "m.yaml", environment: [:]), file: "m.yaml"))
    }

    static func run(_ pairs: [(String, String)], json: String? = nil, mapping: Mapping) -> [NormalizedRecord] {
        var raw = RawRecord(fields: pairs.map { RawField($0.0, $0.1) },
                            position: SourcePosition(file: "f", line: 1, column: 1), ordinal: 0)
        raw.extraJSON = json.map { Array($0.utf8) }
        return Validator(mapping: mapping).process(Normalizer(mapping: mapping, zone: nil).process([raw])).records
    }

    static func extra(_ record: NormalizedRecord) -> String {
        record.extraJSON.map { String(decoding: $0, as: UTF8.self) } ?? JSONText.object(record.extra)
    }

    @Test(arguments: [
        // The first source with a value wins; the others go to extra in the record's order.
        ([("Pool", "Y"), ("ListingKey", "K1"), ("ListingId", "L1"), ("Price", "9"), ("ListPrice", "10")],
         #"{"Pool":"Y","ListingKey":"K1","Price":"9"}"#),
        // An empty alternate, or one of white space, is nothing to keep; an earlier empty one is passed over.
        ([("ListingId", ""), ("ListingKey", "K1"), ("ListPrice", "10"), ("Price", "")], "{}"),
        // A value another field took stays out of extra: the agent's id is the listing agent's too.
        ([("ListingId", "L1"), ("ListAgent/MemberMlsId", "A1"), ("ListAgentMlsId", "A1"),
          ("ListAgentEmail", "old@example.com"), ("ListAgent/MemberEmail", "new@example.com")],
         #"{"ListAgentEmail":"old@example.com"}"#),
        // A repeated key: its first value is read, the others kept.
        ([("ListingId", "L1"), ("City", "Austin"), ("City", "Round Rock")], #"{"City":"Round Rock"}"#),
        // A path around the record is not the record's content.
        ([("ListingId", "L1"), ("Town", "Austin"), ("../name()", "Residential")], "{}"),
        // A bad value is the one its field took: the alternates after it go to extra, its text as `_invalid`.
        ([("ListingId", "L1"), ("ListPrice", "call"), ("Price", "10")],
         #"{"Price":"10","_invalid.list_price":"call"}"#),
    ] as [([(String, String)], String)])
    func flatRecords(pairs: [(String, String)], extra: String) throws {
        let records = Self.run(pairs, mapping: try Self.mapping())
        #expect(records.first.map(Self.extra) == extra)
    }

    @Test func structuredRecordsGetTheAlternatesInTheirJSON() throws {
        let mapping = try Self.mapping()
        let records = Self.run([("ListingId", "L1"), ("ListingKey", "K1"), ("Key2", "K1")],
                               json: #"{"Pool":true}"#, mapping: mapping)
        #expect(records.first.map(Self.extra) == #"{"Pool":true,"ListingKey":"K1"}"#)
        let keyed = Self.run([("ListingId", "L1"), ("ListingKey", "K1")], json: "{}", mapping: mapping)
        #expect(keyed.first.map(Self.extra) == #"{"ListingKey":"K1"}"#)
    }

    /// An agent read from repeated elements keeps what its fields passed over in its own extra.
    @Test func repeatedAgentsKeepTheirAlternates() throws {
        let mapping = Mapping(entity: .listing, fields: [
            FieldMapping(name: "listing_id", sources: ["Id"], type: .text, required: true),
        ], embedded: [EmbeddedMapping(each: "Participant", fields: [
            FieldMapping(name: "agent_mls_id", sources: ["ParticipantId"], type: .text),
            FieldMapping(name: "office_phone", sources: ["OfficePhone", "DirectPhone"], type: .phone),
        ])])
        var raw = RawRecord(fields: [RawField("Id", "L1")], position: SourcePosition(file: "f", line: 1, column: 1),
                            ordinal: 0, extraJSON: Array("{}".utf8))
        raw.children = [RawChild(mapping: 0, fields: [RawField("ParticipantId", "A1"),
                                                      RawField("OfficePhone", "619-555-0134"),
                                                      RawField("DirectPhone", "619-555-0199")],
                                 extraJSON: Array(#"{"Role":"Listing"}"#.utf8))]
        let coerced = Normalizer(mapping: mapping, zone: nil).process([raw])
        let records = Validator(mapping: mapping).process(coerced).records
        try #require(records.count == 2)
        #expect(records[1].values["office_phone"] == .text("(619) 555-0134"))
        #expect(Self.extra(records[1]) == #"{"Role":"Listing","DirectPhone":"619-555-0199"}"#)
    }
}
