import Foundation
import Testing
@testable import MLSFeed
import YAMLConfig

/// Starter mappings from metadata: byte-exact golden files, and every mapping loads as a mapping and a pipeline.
@Suite struct StarterMappingTests {
    /// One golden case: the metadata, the options `mapping init` gets, and the expected file.
    struct Case: CustomTestStringConvertible, Sendable {
        var metadata: String
        var lookups: String?
        var resource = "Property"
        var className: String?
        var golden: String
        /// The pipeline format that reads such feeds (`xml` where the mapping has `ListAgent/...` paths).
        var format: String

        var testDescription: String { golden }

        func mapping() throws -> StarterMapping {
            var document = try MetadataFixture.read(metadata)
            if let lookups { try document.addLookups(from: MetadataFixture.read(lookups)) }
            return try StarterMapping(document: document, resource: resource, className: className)
        }
    }

    static let cases = [
        Case(metadata: "reso-metadata.xml", golden: "reso-property.golden.yaml", format: "xml"),
        Case(metadata: "reso-metadata.xml", resource: "Member", golden: "reso-member.golden.yaml", format: "xml"),
        Case(metadata: "rets-table-compact.xml", lookups: "rets-lookups-compact.xml",
             golden: "rets-compact.golden.yaml", format: "rets-compact"),
        Case(metadata: "rets-standard-xml.xml", className: "RE_1", golden: "rets-standard-xml.golden.yaml",
             format: "rets-compact"),
        Case(metadata: "reso-dd2.xml", golden: "reso-dd2.golden.yaml", format: "reso-json"),
    ]

    static func load(_ yaml: String, structured: Bool) throws -> Mapping {
        try Mapping(config: ConfigNode(YAMLDocument.parse(yaml, file: "m.yaml", environment: [:]), file: "m.yaml"),
                    paths: structured ? PathRules(prefixes: []) : nil)
    }

    @Test(arguments: cases)
    func writesTheGoldenFile(_ test: Case) throws {
        let yaml = try test.mapping().yaml
        #expect(yaml == (try MetadataFixture.text(test.golden)))
        let long = yaml.split(separator: "\n").filter { $0.count > StarterMapping.width }
        #expect(long.isEmpty, "\(long)")
    }

    /// Each mapping loads as a mapping, and as the mapping file of a pipeline (what `mlsfeed validate` checks).
    @Test(arguments: cases)
    func everyMappingLoads(_ test: Case) throws {
        let yaml = try test.mapping().yaml
        let mapping = try Self.load(yaml, structured: test.format != "rets-compact")
        #expect(mapping.entity == (test.resource == "Member" ? .agent : .listing))
        #expect(mapping.fields.first?.name == mapping.entity.keyColumn)
        #expect(mapping.fields.first?.required == true)

        let dir = try MetadataFixture.scratch("starter")
        defer { try? FileManager.default.removeItem(at: dir) }
        try yaml.write(to: dir.appendingPathComponent("starter.yaml"), atomically: true, encoding: .utf8)
        try """
            source: { id: mls, time_zone: America/Los_Angeles }
            format: { type: \(test.format) }
            mapping: starter.yaml
            """.write(to: dir.appendingPathComponent("p.yaml"), atomically: true, encoding: .utf8)
        let config = try PipelineConfig.load(path: dir.appendingPathComponent("p.yaml").path,
                                             project: ProjectConfig(), environment: [:])
        #expect(config.mapping == mapping)
    }

    @Test func placedFieldsHaveTheTypesAndWordsTheMetadataImplies() throws {
        let edmx = try Self.load(Self.cases[0].mapping().yaml, structured: true)
        func field(_ mapping: Mapping, _ name: String) throws -> FieldMapping {
            guard let found = mapping.fields.first(where: { $0.name == name }) else {
                throw MetadataError("no field \(name)")
            }
            return found
        }
        let types = try ["listing_id", "list_price", "listing_contract_date", "modification_timestamp",
                         "bedrooms_total", "living_area", "postal_code", "latitude", "standard_status"]
            .map { try field(edmx, $0).type }
        #expect(types == [.text, .money, .date, .timestamp, .integer, .decimal, .postalCode, .latitude, .enum])
        let status = try field(edmx, "standard_status")
        #expect(status.required)
        #expect(status.enumValues[FieldMapping.enumKey("Active Under Contract")] == "ActiveUnderContract")
        #expect(status.enumValues[FieldMapping.enumKey("Coming Soon")] == "ComingSoon")
        #expect(try field(edmx, "list_price").required && field(edmx, "list_price").minimum == 0)
        #expect(try field(edmx, "state_or_province").enumValues == ["ca": "CA", "nv": "NV", "az": "AZ"])
        let agent = try #require(edmx.embedded.first)
        #expect(agent.link == "list_agent_mls_id" && agent.each == nil)
        #expect(agent.fields.first { $0.name == "office_phone" }?.sources
            == ["ListAgent/MemberOfficePhone", "ListAgent/MemberDirectPhone"])
        // The expanded agent first, then the listing's own fields.
        #expect(agent.fields.first { $0.name == "first_name" }?.sources
            == ["ListAgent/MemberFirstName", "ListAgentFirstName"])
        #expect(try field(edmx, "listing_id").sources == ["ListingId", "ListingKey"])
        #expect(try field(edmx, "listing_key").sources == ["ListingKey"])
        #expect(edmx.multiValue == ["Appliances"])

        let rets = try Self.load(Self.cases[2].mapping().yaml, structured: false)
        let retsStatus = try field(rets, "standard_status")
        #expect(retsStatus.sources == ["LIST_15"])
        #expect(["A", "AUC", "S", "Sold", "Cancelled", "TOM"].map { retsStatus.enumValues[FieldMapping.enumKey($0)] }
            == ["Active", "ActiveUnderContract", "Closed", "Closed", "Canceled", "Temp Off Market"])
        #expect(try field(rets, "property_type").enumValues["land"] == "Land")
        #expect(try field(rets, "city").enumValues["sdg"] == "San Diego")
        // By a RETS 1.x standard name, and by the long name of a field with no standard name.
        #expect(try field(rets, "bedrooms_total").sources == ["LIST_66"])
        #expect(try field(rets, "original_list_price").sources == ["LIST_23"])
        // The flat listing agent reads the listing's own fields; those go nowhere else.
        #expect(rets.embedded.first?.fields.map(\.name)
            == ["agent_mls_id", "first_name", "last_name", "office_mls_id", "office_phone", "email"])
        #expect(rets.embedded.first?.link == "list_agent_mls_id")
        #expect(!rets.placedKeys.contains("LIST_7") && rets.placedKeys.contains("LIST_140"))
        #expect(rets.multiValue == ["LIST_7"])
    }

    /// The rules place columns in the entity's column order and cover every column a field fills.
    @Test func rulesFollowTheColumnOrder() {
        for entity in Entity.allCases {
            #expect(ColumnRule.rules(for: entity).map(\.column)
                == entity.columns.filter { $0.type != .jsonb }.map(\.name), "\(entity)")
        }
        #expect(ColumnRule.listAgent.map(\.column) == Column.agent.map(\.name))
    }

    /// Words YAML would misread come back as written: booleans, numbers, `: `, `#`, quotes, `${`, control bytes.
    @Test func oddWordsRoundTripThroughTheConfigReader() throws {
        let words = ["Yes", "no", "1", "2.5", "a: b", "#hash", "x #y", "\"quoted\"", "${HOME}", "- dash", "tab\there",
                     "trailing ", " leading", "[list]", "{map}", "it's", "Côte-d'Or", "null", "~", "@at", "back\\slash"]
        var document = MetadataDocument(file: "odd.xml", format: .retsCompact)
        var table = MetadataTable(resource: "Property", className: "RES")
        table.fields = [MetadataField(name: "ID #1", standardName: "ListingId", kind: .text, typeLabel: "Character"),
                        MetadataField(name: "Status: now", standardName: "StandardStatus", kind: .text,
                                      typeLabel: "Character", lookup: "Property:S", lookupName: "S"),
                        MetadataField(name: "Odd", standardName: "City", kind: .text, typeLabel: "Character",
                                      lookup: "Property:O", lookupName: "O")]
        document.tables = [table]
        document.lookups["Property:S"] = MetadataLookup(name: "S", entries: [.init(canonical: "Active",
                                                                                   words: ["A"])])
        document.lookups["Property:O"] = MetadataLookup(name: "O", entries: words.enumerated().map {
            .init(canonical: "\($1)!\($0)", words: [$1])
        })
        let yaml = try StarterMapping(document: document, resource: "Property").yaml
        let mapping = try Self.load(yaml, structured: false)
        #expect(mapping.fields.map(\.sources) == [["ID #1"], ["Status: now"], ["Odd"]])
        let city = try #require(mapping.fields.last)
        let expected = Dictionary(uniqueKeysWithValues: words.enumerated().map {
            (FieldMapping.enumKey($1), "\($1)!\($0)")
        })
        #expect(city.enumValues == expected)
    }

    @Test func wordsThatFoldTogetherButMeanDifferentValuesKeepTheFirst() throws {
        var document = MetadataDocument(file: "fold.xml", format: .retsCompact)
        var table = MetadataTable(resource: "Property")
        table.fields = [MetadataField(name: "ID", standardName: "ListingId", kind: .text, typeLabel: "Character"),
                        MetadataField(name: "ST", standardName: "StandardStatus", kind: .text, typeLabel: "Character",
                                      lookup: "Property:ST", lookupName: "ST")]
        document.tables = [table]
        document.lookups["Property:ST"] = MetadataLookup(name: "ST", entries: [
            .init(canonical: "Active", words: ["A", "Act", "Active"]),
            .init(canonical: "Pending", words: ["ACT", "Pending"]),
        ])
        let yaml = try StarterMapping(document: document, resource: "Property").yaml
        #expect(yaml.contains("""
                # Left out "ACT" (Pending): the same word as "Act" (Active).
                values:
                  A: Active
                  Act: Active
                  Active: Active
                  Pending: Pending
            """))
        #expect(try Self.load(yaml, structured: false).fields[1].enumValues["act"] == "Active")
    }

    /// Without its lookups, a RETS table still gives a mapping: the statuses take the RESO values, a city is text,
    /// and the header names what is missing.
    @Test func lookupsMissingFromTheMetadataAreNamed() throws {
        let starter = try StarterMapping(document: MetadataFixture.read("rets-table-compact.xml"), resource: "Property")
        #expect(starter.missingLookups == ["ListingStatus (LIST_15)", "PropertyType (LIST_9)", "City (LIST_39)"])
        let yaml = starter.yaml
        #expect(yaml.contains("give them with --lookups FILE.\n"))
        let mapping = try Self.load(yaml, structured: false)
        #expect(mapping.fields.first { $0.name == "city" }?.type == .text)
        #expect(mapping.fields.first { $0.name == "standard_status" }?.enumValues["activeundercontract"]
            == "ActiveUnderContract")
        #expect(mapping.fields.first { $0.name == "property_type" }?.enumValues["residentialincome"]
            == "ResidentialIncome")
    }

    /// A resource without a field that can be its key gets a starter whose key reads `TODO`, with a warning; the
    /// mapping is refused until the key is named. A resource the file lacks is refused.
    @Test func aResourceWithoutItsKeyFieldGetsATodoKey() throws {
        var document = MetadataDocument(file: "nokey.xml", format: .edmx)
        var table = MetadataTable(resource: "Property")
        table.fields = [MetadataField(name: "ListPrice", kind: .decimal, typeLabel: "Edm.Decimal")]
        document.tables = [table]
        let starter = try StarterMapping(document: document, resource: "Property")
        #expect(starter.warnings == ["nokey.xml: Property has no field mapping init takes for the key listing_id "
                                     + "(ListingId, MLSNumber, MLNumber, ... or a declared key): listing_id reads "
                                     + "from TODO; name the feed's key there before using the mapping"])
        #expect(starter.yaml.contains("entity: listing\n# TODO: no field of the metadata is a key mapping init knows: "
                                      + "name the feed's listing_id in its from: (the mapping is\n# refused until "
                                      + "then).\nfields:\n  listing_id: { from: TODO, type: text, required: true }\n"))
        let refusal = #expect(throws: ConfigError.self) { try Self.load(starter.yaml, structured: true) }
        #expect(refusal?.description == "m.yaml:8:23: error: fields.listing_id.from: \"TODO\" marks a source left "
                + "to fill in: name the feed's key (or path) for listing_id")
        #expect(throws: MetadataError("nokey.xml: no EntityType \"Office\" (the file has Property)")) {
            try StarterMapping(document: document, resource: "Office")
        }
    }

    /// The RETS 1.x standard names (`ListingStatus`, `ListDate`, `Beds`, `Baths`, `County`, `AgentID`,
    /// `OfficeID`) and fields known only by a vendor's name (`Zip`, a long name `LastModified`) place columns; a
    /// table with no key field gets a `TODO` key (the golden file) and a warning.
    @Test func retsOneNamesAndAMissingKey() throws {
        let starter = try StarterMapping(document: MetadataFixture.read("rets-table-legacy.xml"),
                                         resource: "Property")
        #expect(starter.yaml == (try MetadataFixture.text("rets-legacy.golden.yaml")))
        #expect(starter.warnings == ["rets-table-legacy.xml: Property:RE has no field mapping init takes for the key "
                                     + "listing_id (ListingId, MLSNumber, MLNumber, ... or a declared key): listing_id "
                                     + "reads from TODO; name the feed's key there before using the mapping"])
        let named = starter.yaml.replacingOccurrences(of: "from: TODO", with: "from: L_DisplayId")
        let mapping = try Self.load(named, structured: false)
        let sources = Dictionary(uniqueKeysWithValues: mapping.fields.map { ($0.name, $0.sources) })
        #expect(sources == ["listing_id": ["L_DisplayId"], "standard_status": ["L_Status"],
                            "list_price": ["L_AskingPrice"], "listing_contract_date": ["L_ListDate"],
                            "modification_timestamp": ["L_UpdateDate"], "bedrooms_total": ["L_Beds"],
                            "bathrooms_full": ["L_Baths"], "postal_code": ["Zip"], "county_or_parish": ["L_County"],
                            "public_remarks": ["L_Remarks"], "list_agent_mls_id": ["L_AgentID"],
                            "list_office_mls_id": ["L_OfficeID"]])
        #expect(mapping.fields[1].enumValues["sld"] == "Closed")
    }

    /// The EDMX `<Key>` is the record key: it backs the MLS number up in `listing_id` and fills `listing_key`; with
    /// no `ListingId`, the key alone is `listing_id`. A field too long for one line is written as a block; without
    /// enum values, a standard status gets the RESO ones.
    @Test func listingKeyLongNamesAndBuiltInStatuses() throws {
        var document = MetadataDocument(file: "k.xml", format: .edmx)
        var table = MetadataTable(resource: "Property")
        let long = String(repeating: "VeryLongLocalName", count: 6)
        table.fields = [MetadataField(name: "ListingKey", kind: .text, typeLabel: "Edm.String"),
                        MetadataField(name: "StandardStatus", kind: .text, typeLabel: "Edm.String"),
                        MetadataField(name: long, displayName: "List Price", kind: .decimal, typeLabel: "Edm.Decimal")]
        document.tables = [table]
        let yaml = try StarterMapping(document: document, resource: "Property").yaml
        #expect(yaml.contains("  listing_id:  { from: ListingKey, type: text, required: true }\n"))
        #expect(yaml.contains("  listing_key: { from: ListingKey, type: text }\n"))

        var keyed = document
        keyed.tables[0].fields.insert(MetadataField(name: "PropertyKey", kind: .text, typeLabel: "Edm.String"), at: 0)
        keyed.tables[0].fields.append(MetadataField(name: "ListingId", kind: .text, typeLabel: "Edm.String"))
        keyed.tables[0].keyFields = ["PropertyKey"]
        let keyedMapping = try Self.load(StarterMapping(document: keyed, resource: "Property").yaml, structured: true)
        #expect(keyedMapping.fields.first?.sources == ["ListingId", "PropertyKey"])
        #expect(keyedMapping.fields.last?.name == "listing_key")
        #expect(keyedMapping.fields.last?.sources == ["ListingKey"])
        #expect(yaml.contains("  list_price:\n    from: \(long)\n    type: money\n    required: true\n    min: 0\n"))
        let mapping = try Self.load(yaml, structured: true)
        #expect(Set(mapping.fields[1].enumValues.values) == ["Active", "ActiveUnderContract", "Pending", "Closed",
                                                              "Expired", "Withdrawn", "Canceled", "Hold", "ComingSoon"])
        #expect(yaml.split(separator: "\n").allSatisfy { $0.count <= StarterMapping.width })
    }
}
