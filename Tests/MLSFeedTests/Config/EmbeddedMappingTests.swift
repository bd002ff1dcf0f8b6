import Foundation
import Testing
@testable import MLSFeed
import YAMLConfig

/// The embedded rows of a listing mapping (`embedded_offices`, `embedded_media`, `embedded_open_houses`), its
/// `rooms:` and `unit_types:`, and the resource entities (`entity: office`, `open_house`, `media`), as a pipeline
/// reads them: what they make, and every mistake named with its position.
@Suite struct EmbeddedMappingTests {
    static let listing = """
        source: { id: actris, time_zone: UTC }
        format: { type: reso-json }
        mapping:
          fields:
            listing_id: { from: ListingId, type: text, required: true }
          embedded_offices:
            - link: list_office_mls_id
              fields:
                office_mls_id: { from: ListOfficeMlsId, type: text }
          embedded_media:
            - each: Media
              fields:
                media_key: { from: MediaKey, type: text }
                media_order: { from: Order, type: integer }
          embedded_open_houses:
            - each: OpenHouse
              fields:
                start_at: { from: OpenHouseStartTime, type: timestamp }
          rooms: Rooms
          unit_types: UnitTypes
        """

    @Test func aListingMappingEmbedsEveryKind() throws {
        let mapping = try PipelineConfigTests.load(Self.listing).mapping
        #expect(mapping.embedded.map(\.entity) == [.office, .media, .openHouse])
        #expect(mapping.embedded.map(\.each) == [nil, "Media", "OpenHouse"])
        #expect(mapping.embedded.map(\.link) == ["list_office_mls_id", nil, nil])
        #expect(mapping.rooms == "Rooms" && mapping.unitTypes == "UnitTypes")
        #expect(mapping.ownedKinds == Entity.media.carriedBit | Entity.openHouse.carriedBit)
        // The new parts count in the mapping's fingerprint; a mapping without them reads as before.
        #expect(mapping.canonicalText.hasSuffix("\u{1E}rooms=Rooms\u{1E}unit_types=UnitTypes"))
        var plain = mapping
        plain.embedded = []
        plain.rooms = nil
        plain.unitTypes = nil
        #expect(plain.canonicalText.hasSuffix("\u{1E}agent"))
    }

    @Test func aFlatFormatReadsNoRepeatedElements() throws {
        let text = Self.listing.replacingOccurrences(of: "format: { type: reso-json }",
                                                     with: "format: { type: triples }")
        let mapping = try PipelineConfigTests.load(text).mapping
        #expect(mapping.embedded.map(\.each) == [nil, "Media", "OpenHouse"])
        #expect(mapping.placedKeys == ["ListingId", "ListOfficeMlsId"])
    }

    static let resource = """
        source: { id: actris, time_zone: UTC }
        format: { type: reso-json }
        mapping:
          entity: media
          fields:
            media_key: { from: MediaKey, type: text, required: true }
            listing_id: { from: ResourceRecordID, type: text, required: true }
        """

    static let mistakes: [(String, String)] = [
        (listing.replacingOccurrences(of: "media_order: { from: Order", with: "media_ordr: { from: Order"),
         #"nightly.yaml:14:21: error: mapping.embedded_media[0].fields.media_ordr: "media_ordr" is not a column of "#
            + #"media; did you mean "media_order"?"#),
        (listing.replacingOccurrences(of: "        media_key: { from: MediaKey, type: text }",
                                      with: "        listing_id: { from: ListingId, type: text }"),
         #"nightly.yaml:13:21: error: mapping.embedded_media[0].fields.listing_id: "listing_id" of an embedded "#
            + #"media row is its listing's: leave it out"#),
        (listing.replacingOccurrences(of: "    - each: OpenHouse\n",
                                      with: "    - each: OpenHouse\n      link: remarks\n"),
         #"nightly.yaml:17:13: error: mapping.embedded_open_houses[0].link: "link" fills a listing column with an "#
            + #"agent's or office's id; open houses belong to their listing"#),
        (listing.replacingOccurrences(of: "link: list_office_mls_id", with: "link: list_ofice_mls_id"),
         #"nightly.yaml:7:13: error: mapping.embedded_offices[0].link: "list_ofice_mls_id" is not a text column "#
            + #"of listings; did you mean "list_office_mls_id"?"#),
        (listing.replacingOccurrences(of: "rooms: Rooms", with: "rooms: ../Rooms"),
         #"nightly.yaml:19:10: error: mapping.rooms: "rooms" names elements inside the record, like Rooms"#),
        (listing.replacingOccurrences(of: "  rooms: Rooms\n", with: "")
            .replacingOccurrences(of: "listing_id: { from: ListingId, type: text, required: true }",
                                  with: "listing_id: { from: ListingId, type: text, required: true }\n    "
                                      + "rooms: { from: Rooms, type: text }"),
         #"nightly.yaml:6:12: error: mapping.fields.rooms: "rooms" is filled by the mapping's rooms: path (the "#
            + #"repeated elements whose objects it holds), not by a field"#),
        (listing.replacingOccurrences(of: "embedded_media:", with: "embeded_media:"),
         #"nightly.yaml:10:3: error: mapping.embeded_media: unknown key "embeded_media"; did you mean "#
            + #""embedded_media"?"#),
        (resource.replacingOccurrences(of: "\n    listing_id: { from: ResourceRecordID, type: text, required: true }",
                                       with: ""),
         #"nightly.yaml:6:5: error: mapping.fields: the mapping must place "listing_id": every media row belongs to a "#
            + "listing"),
        (resource + "\n  embedded_offices:\n    - fields: { office_mls_id: { from: OfficeMlsId, type: text } }",
         "nightly.yaml:9:5: error: mapping.embedded_offices: only a listing mapping can embed offices"),
        (resource + "\n  rooms: Rooms",
         "nightly.yaml:8:10: error: mapping.rooms: only a listing mapping has rooms"),
        (resource.replacingOccurrences(of: "entity: media", with: "entity: photo"),
         #"nightly.yaml:4:11: error: mapping.entity: expected one of: listing, agent, office, open_house, media, "#
            + #"got "photo""#),
    ]

    @Test(arguments: mistakes)
    func mistakesAreNamed(text: String, expected: String) throws {
        #expect(try MappingConfigTests.error(text) == expected)
    }

    @Test func deletionsAreForListings() throws {
        let text = """
            source:
              id: actris
              time_zone: UTC
              http: { odata: { top: 10 }, deleted_when: { field: MlgCanView, equals: false } }
            format: { type: reso-json }
            mapping:
              entity: office
              fields: { office_mls_id: { from: OfficeMlsId, type: text, required: true } }
            """
        #expect(try MappingConfigTests.error(text)
            == "nightly.yaml:4:45: error: source.http.deleted_when: deleted_when withdraws listings: a mapping of "
            + "offices cannot use it")
    }
}
