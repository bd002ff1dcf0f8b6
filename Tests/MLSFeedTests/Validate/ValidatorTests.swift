import Foundation
import Testing
@testable import MLSFeed
import YAMLConfig

/// Normalize and validate together, on raw records as the triples reader produces them.
@Suite struct ValidatorTests {
    static let mappingYAML = """
        entity: listing
        fields:
          listing_id: { from: mls_number, type: text, required: true }
          standard_status:
            { from: status, type: enum, required: true, values: { Active: Active, A: Active, Sold: Closed } }
          list_price: { from: list_price, type: money, required: true }
          bedrooms_total: { from: bedrooms, type: integer }
          bathrooms_full: { from: full_baths, type: integer, default: "1", on_error: default }
          modification_timestamp: { from: modified, type: timestamp }
          postal_code: { from: zipcode, type: postal_code }
          latitude: { from: latitude, type: latitude }
          list_agent_mls_id: { from: la_id, type: text }
        embedded_agent:
          agent_mls_id: { from: la_id, type: text }
          first_name: { from: la_first_name, type: text }
          email: { from: la_member_email, type: email }
        """

    static func mapping() throws -> Mapping {
        let node = try YAMLDocument.parse(mappingYAML, file: "m.yaml", environment: [:])
        return try Mapping(config: ConfigNode(node, file: "m.yaml"))
    }

    static func record(_ pairs: [(String, String)], line: Int = 3, ordinal: Int = 0, defect: String? = nil)
        -> RawRecord {
        RawRecord(fields: pairs.map { RawField($0.0, $0.1) }, position: SourcePosition(file: "feed.xml", line: line,
                                                                                     column: 5),
                  ordinal: ordinal, defect: defect)
    }

    static func run(_ records: [RawRecord]) throws -> ValidatedBatch {
        let mapping = try mapping()
        let normalizer = Normalizer(mapping: mapping, zone: TimeZone(identifier: "America/Los_Angeles"))
        return Validator(mapping: mapping).process(normalizer.process(records))
    }

    @Test func goodRecordBecomesTypedListingAndAgent() throws {
        let out = try Self.run([Self.record([
            ("mls_number", " 0230012345 "), ("status", "A"), ("list_price", "$549,000"), ("bedrooms", " 3 "),
            ("full_baths", ""), ("modified", "11/28/2026 01:59:03 AM"), ("zipcode", "921034411"), ("latitude", "0"),
            ("la_id", "AG1"), ("la_first_name", "Jane"), ("la_member_email", "JDoe@Example.com"), ("pool", "Y"),
            ("view", ""),
        ])])
        #expect(out.rejects.isEmpty)
        try #require(out.records.count == 2)
        let listing = out.records[0]
        #expect(listing.values["listing_id"] == .text("0230012345"))
        #expect(listing.values["standard_status"] == .text("Active"))
        #expect(listing.values["list_price"] == .decimal("549000"))
        #expect(listing.values["bedrooms_total"] == .integer(3))
        #expect(listing.values["bathrooms_full"] == .integer(1))
        #expect(listing.values["modification_timestamp"] == .timestamp("2026-11-28T09:59:03Z"))
        #expect(listing.values["postal_code"] == .text("92103-4411"))
        #expect(listing.values["latitude"] == nil)
        #expect(listing.extra == [RawField("pool", "Y")])
        #expect(listing.contentHash.count == 32)
        let agent = out.records[1]
        #expect(agent.entity == .agent)
        #expect(agent.values["agent_mls_id"] == .text("AG1"))
        #expect(agent.values["email"] == .text("jdoe@example.com"))
    }

    /// A recognised copy of a stored listing becomes its key and the stored modification time (two columns, not
    /// the listing's 41), with its place in the stored set; its embedded agent still follows it.
    @Test func aRecognisedCopyKeepsOnlyItsKeyAndStoredTimestamp() throws {
        let copy = StoredCopy(epochMicroseconds: 1_795_000_000_123_456, place: 7)
        var raw = Self.record([("mls_number", " 0230012345 "), ("la_id", "AG1"), ("la_first_name", "Jane")])
        raw.rawHash = 42
        raw.stored = copy
        let out = try Self.run([raw])
        #expect(out.rejects.isEmpty)
        try #require(out.records.count == 2)
        let listing = out.records[0]
        let timestamp = try #require(copy.modificationTimestamp)
        #expect(listing.isStored && listing.isRecognisedKey)
        #expect(listing.columns == [.text("0230012345"), .timestamp(timestamp)])
        #expect(listing.values == ["listing_id": .text("0230012345"), "modification_timestamp": .timestamp(timestamp)])
        #expect(listing.key == "0230012345")
        #expect(listing.modificationTimestamp == timestamp)
        #expect(listing.storedPlace == 7)
        #expect(listing.rawHash == 42)
        #expect(out.records[1].entity == .agent)
        #expect(out.records[1].values["agent_mls_id"] == .text("AG1"))
        #expect(out.records[1].values["first_name"] == .text("Jane"))
    }

    @Test func everyReasonIsReportedAtOnce() throws {
        let raw = [("mls_number", "230099"), ("status", "Bogus"), ("list_price", "call agent"), ("bedrooms", "3")]
        let out = try Self.run([Self.record(raw, line: 41)])
        #expect(out.records.isEmpty)
        try #require(out.rejects.count == 1)
        let reject = out.rejects[0]
        #expect(reject.key == "230099")
        #expect(reject.raw == raw.map { RawField($0.0, $0.1) })
        #expect(reject.diagnostic == #"feed.xml:41:5: error: MLS 230099: standard_status: unknown value ("Bogus"); "#
            + #"list_price: not a price ("call agent")"#)
        #expect(out.rejectReasons.lines == [#"list_price: 1 not a price ("call agent")"#,
                                            #"standard_status: 1 unknown value ("Bogus")"#])
    }

    @Test func missingRequiredFieldRejects() throws {
        let out = try Self.run([Self.record([("mls_number", ""), ("status", "Active"), ("list_price", "1")])])
        #expect(out.rejects.first?.diagnostic == "feed.xml:3:5: error: listing_id: required field is missing")
    }

    @Test func badOptionalValuesAreNulledAndCounted() throws {
        let out = try Self.run([
            Self.record([("mls_number", "1"), ("status", "Sold"), ("list_price", "1"), ("bedrooms", "three"),
                         ("full_baths", "lots"), ("la_id", "AG1"), ("la_member_email", "not-an-email")]),
            Self.record([("mls_number", "2"), ("status", "Sold"), ("list_price", "1"), ("bedrooms", "many")],
                        ordinal: 1),
        ])
        #expect(out.rejects.isEmpty)
        #expect(out.records.filter { $0.entity == .listing }.allSatisfy { $0.values["bedrooms_total"] == nil })
        #expect(out.records[0].values["bathrooms_full"] == .integer(1))
        #expect(out.issues.lines == [
            #"agent.email: 1 not an email address ("not-an-email")"#,
            #"bathrooms_full: 1 not an integer, used default ("lots")"#,
            #"bedrooms_total: 2 not an integer ("three")"#,
        ])
    }

    /// Nothing lost: the text of a bad value the row does not hold goes to `extra` as `_invalid.<column>` (a
    /// listing's, and an embedded agent's own), whether the column ends NULL or with its default.
    @Test func badValuesKeepTheirTextInExtra() throws {
        let out = try Self.run([
            Self.record([("mls_number", "1"), ("status", "Sold"), ("list_price", "1"), ("bedrooms", " three "),
                         ("full_baths", "lots"), ("la_id", "AG1"), ("la_member_email", "not-an-email"), ("pool", "Y")]),
        ])
        try #require(out.records.count == 2)
        #expect(out.records[0].extra == [RawField("pool", "Y"), RawField("_invalid.bedrooms_total", "three"),
                                         RawField("_invalid.bathrooms_full", "lots")])
        #expect(out.records[1].extra == [RawField("_invalid.email", "not-an-email")])
        #expect(out.records[1].contentHash == ContentHash.of(.agent, columns: out.records[1].columns,
                                                             extra: out.records[1].extra))
    }

    /// `on_unknown`: an enum word the table lacks is kept as sent, or (warn) dropped to `extra` and counted by
    /// value, or rejects its record; the defaults follow `on_error` (`reject` for required fields, else `warn`).
    @Test(arguments: [
        ("", "Cabin", nil, ["_invalid.property_type=Cabin"], [#"property_type: 1 unknown value ("Cabin")"#], []),
        (", on_unknown: keep", " Cabin ", "Cabin", [], [], []),
        (", on_unknown: warn", "Cabin", nil, ["_invalid.property_type=Cabin"],
         [#"property_type: 1 unknown value ("Cabin")"#], []),
        (", on_unknown: reject", "Cabin", nil, [], [], [#"property_type: 1 unknown value ("Cabin")"#]),
        (", default: R, on_error: default", "Cabin", "Residential", ["_invalid.property_type=Cabin"],
         [#"property_type: 1 unknown value, used default ("Cabin")"#], []),
        (", required: true", "Cabin", nil, [], [], [#"property_type: 1 unknown value ("Cabin")"#]),
        (", required: true, on_unknown: keep", "Cabin", "Cabin", [], [], []),
        (", on_unknown: warn", "r", "Residential", [], [], []),
    ] as [(String, String, String?, [String], [String], [String])])
    func unknownEnumWords(options: String, raw: String, stored: String?, extra: [String], issues: [String],
                          rejects: [String]) throws {
        let yaml = """
            entity: listing
            fields:
              listing_id: { from: id, type: text, required: true }
              property_type: { from: type, type: enum, values: { R: Residential }\(options) }
            """
        let mapping = try Mapping(config: ConfigNode(YAMLDocument.parse(yaml, file: "m.yaml", environment: [:]),
                                                     file: "m.yaml"))
        let coerced = Normalizer(mapping: mapping, zone: nil).process([Self.record([("id", "1"), ("type", raw)])])
        let out = Validator(mapping: mapping).process(coerced)
        #expect(out.records.first?.values["property_type"] == stored.map(Value.text))
        #expect(out.records.first.map { $0.extra.map { "\($0.key)=\($0.value)" } } ?? [] == extra)
        #expect(out.issues.lines == issues)
        #expect(out.rejectReasons.lines == rejects)
        #expect(out.rejects.first?.diagnostic == rejects.first.map { _ in
            #"feed.xml:3:5: error: MLS 1: property_type: unknown value ("\#(raw)")"#
        })
    }

    /// Unknown words are counted per value, in the summary and in the reasons of rejects.
    @Test func unknownWordsAreCountedByValue() throws {
        let out = try Self.run(["Bogus", "Teleported", "Bogus", "Sold"].enumerated().map { index, status in
            Self.record([("mls_number", "\(index)"), ("status", status), ("list_price", "1")], ordinal: index)
        })
        #expect(out.rejectReasons.lines == [#"standard_status: 2 unknown value ("Bogus")"#,
                                            #"standard_status: 1 unknown value ("Teleported")"#])
    }

    /// A date written with a time of day keeps its date and is counted, and its record is not fingerprinted (a
    /// recognised copy would not be read again, and its issue would go uncounted).
    @Test func aValueKeptWithAnIssueIsUsedAndCounted() throws {
        let yaml = """
            entity: listing
            fields:
              listing_id: { from: id, type: text, required: true }
              listing_contract_date: { from: listed, type: date, required: true }
            """
        let mapping = try Mapping(config: ConfigNode(YAMLDocument.parse(yaml, file: "m.yaml", environment: [:]),
                                                     file: "m.yaml"))
        var first = Self.record([("id", "1"), ("listed", "2008-09-01 10:30:00")])
        first.rawHash = 7
        var second = Self.record([("id", "2"), ("listed", "2008-09-02 00:00:00")], ordinal: 1)
        second.rawHash = 8
        let out = Validator(mapping: mapping).process(Normalizer(mapping: mapping, zone: nil).process([first, second]))
        #expect(out.rejects.isEmpty)
        #expect(out.records.map { $0.values["listing_contract_date"] } == [.date("2008-09-01"), .date("2008-09-02")])
        #expect(out.records.map(\.rawHash) == [nil, 8])
        #expect(out.issues.lines
            == [#"listing_contract_date: 1 has a time of day, kept the date ("2008-09-01 10:30:00")"#])
    }

    @Test func parserDefectRejectsWholeRecordKeepingRawFields() throws {
        let raw = Self.record([("mls_number", "230012346"), ("status", "Active")], line: 9,
                              defect: "values has 3 fields but keys has 4 (MLS 230012346)")
        let out = try Self.run([raw])
        #expect(out.records.isEmpty)
        #expect(out.rejects.first?.raw == raw.fields)
        #expect(out.rejects.first?.diagnostic
            == "feed.xml:9:5: error: MLS 230012346: record: values has 3 fields but keys has 4 (MLS 230012346)")
    }

    @Test func controlCharactersAreRemovedAndCounted() throws {
        let out = try Self.run([Self.record([("mls_number", "7\u{0}"), ("status", "A"), ("list_price", "5\u{0B}00")])])
        #expect(out.records.first?.values["listing_id"] == .text("7"))
        #expect(out.records.first?.values["list_price"] == .decimal("500"))
        #expect(out.removedCharacters == 2)
    }

    @Test func contentHashIgnoresPositionButSeesChanges() throws {
        let base = [("mls_number", "1"), ("status", "A"), ("list_price", "100")]
        let a = try Self.run([Self.record(base, line: 3)]).records[0]
        let b = try Self.run([Self.record(base, line: 90, ordinal: 7)]).records[0]
        let c = try Self.run([Self.record([("mls_number", "1"), ("status", "A"), ("list_price", "101")])]).records[0]
        #expect(a.contentHash == b.contentHash)
        #expect(a.contentHash != c.contentHash)
    }
}
