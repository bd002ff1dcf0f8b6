import Foundation
import Testing
@testable import MLSFeed
import YAMLConfig

/// The mapping keys `on_unknown`, `multi_value` and the `TODO` placeholder, and paths that start above where they
/// are read (`..`), as a pipeline reads them.
@Suite struct MappingConfigTests {
    static let structured = """
        source: { id: listhub, time_zone: UTC }
        format: { type: xml, record: Listings/Listing, multi_value: [Feature] }
        mapping:
          fields:
            listing_id: { from: MlsNumber, type: text, required: true }
            standard_status: { from: Status, type: enum, required: true, values: { A: Active } }
            property_type: { from: Type, type: enum, values: { R: Residential } }
          embedded_agents:
            - each: ListingParticipants/Participant
              fields:
                agent_mls_id: { from: Id, type: text }
        """

    /// The error `text`, read as a pipeline, throws (its directory left out).
    static func error(_ text: String) throws -> String? {
        let path = try PipelineConfigTests.write(text)
        let directory = String(path.dropLast("nightly.yaml".count))
        do {
            _ = try PipelineConfig.load(path: path, project: ProjectConfig(), environment: [:])
            return nil
        } catch {
            return "\(error)".replacingOccurrences(of: directory, with: "")
        }
    }

    @Test func onUnknownDefaultsFollowOnErrorAndCanBeSet() throws {
        let config = try PipelineConfigTests.load(Self.structured.replacingOccurrences(
            of: "values: { R: Residential } }", with: "values: { R: Residential }, on_unknown: keep }"))
        #expect(config.mapping.fields.map(\.onUnknown) == [.reject, .reject, .keep])
        let defaults = try PipelineConfigTests.load(Self.structured)
        #expect(defaults.mapping.fields.map(\.onUnknown) == [.reject, .reject, .warn])
        #expect(FieldMapping(name: "x", sources: ["x"], type: .enum, onError: .null).onUnknown == .warn)
        #expect(FieldMapping(name: "x", sources: ["x"], type: .enum, required: true, onUnknown: .warn).onUnknown
            == .warn)
    }

    /// The mapping's `multi_value` joins the format's (each name once).
    @Test func theMappingsMultiValueJoinsTheFormats() throws {
        let text = Self.structured + "\n  multi_value: [Appliances, Feature]"
        let config = try PipelineConfigTests.load(text)
        guard case .xml(let xml) = config.parse.format else { throw MetadataError("not xml") }
        #expect(xml.multiValue == ["Feature", "Appliances"])
        #expect(config.mapping.multiValue == ["Appliances", "Feature"])
    }

    static let mistakes: [(String, String)] = [
        (structured.replacingOccurrences(of: "from: MlsNumber", with: "from: [MlsNumber, TODO]"),
         #"nightly.yaml:5:25: error: mapping.fields.listing_id.from: "TODO" marks a source left to fill in: name the "#
            + "feed's key (or path) for listing_id"),
        (structured.replacingOccurrences(of: "{ from: MlsNumber, type: text, required: true }",
                                         with: "{ from: MlsNumber, type: text, on_unknown: warn }"),
         #"nightly.yaml:5:60: error: mapping.fields.listing_id.on_unknown: "on_unknown" only applies to type enum"#),
        (structured.replacingOccurrences(of: "values: { R: Residential } }",
                                         with: "values: { R: Residential }, on_unknown: drop }"),
         #"nightly.yaml:7:86: error: mapping.fields.property_type.on_unknown: expected one of: keep, warn, reject, "#
            + #"got "drop""#),
        (structured.replacingOccurrences(of: "from: Type", with: "from: ../Type"),
         #"nightly.yaml:7:28: error: mapping.fields.property_type.from: the path "../Type" leaves the record: of the "#
            + #"elements around a record only name() and attributes are read ("../name()", "../@id")"#),
        (structured.replacingOccurrences(of: "from: Type", with: "from: \"..\""),
         #"nightly.yaml:7:28: error: mapping.fields.property_type.from: the path ".." leaves the record: of the "#
            + #"elements around a record only name() and attributes are read ("../name()", "../@id")"#),
        (structured.replacingOccurrences(of: "from: Id", with: "from: ../../../Offices/Office/Id"),
         #"nightly.yaml:11:31: error: mapping.embedded_agents[0].fields.agent_mls_id.from: the path "#
            + #""../../../Offices/Office/Id" leaves the record: of the elements around a record only name() and "#
            + #"attributes are read ("../name()", "../@id")"#),
        (structured.replacingOccurrences(of: "from: Type", with: "from: Address/../Type"),
         #"nightly.yaml:7:28: error: mapping.fields.property_type.from: "Address/../Type" is not a path: "#
            + #""Address/../Type": ".." can only begin a path"#),
        (structured.replacingOccurrences(of: "from: Type", with: "from: name()/Type"),
         #"nightly.yaml:7:28: error: mapping.fields.property_type.from: "name()/Type" is not a path: "#
            + #""name()/Type": name() can only end a path"#),
        (structured.replacingOccurrences(of: "each: ListingParticipants/Participant", with: "each: ../Participant"),
         #"nightly.yaml:9:13: error: mapping.embedded_agents[0].each: "each" names elements inside the record, like "#
            + "ListingParticipants/Participant"),
        (structured.replacingOccurrences(
            of: "      fields:\n        agent_mls_id",
            with: "      where: { ../Role: Listing }\n      fields:\n        agent_mls_id"),
         #"nightly.yaml:10:25: error: mapping.embedded_agents[0].where.../Role: a "where" path reads inside the "#
            + #"repeated element (no "..")"#),
        ("""
            source: { id: s }
            format: { type: triples }
            mapping:
              fields: { listing_id: { from: mls_number, type: text } }
              multi_value: [features]
            """,
         "nightly.yaml:4:3: error: mapping: the mapping's multi_value needs a format with list fields (rets-compact, "
            + "xml or reso-json), not triples"),
    ]

    @Test(arguments: mistakes)
    func mistakesAreNamed(text: String, expected: String) throws {
        #expect(try Self.error(text) == expected)
    }

    /// Paths that go up within the record, or to a name or an attribute around it, are accepted.
    @Test func pathsAboveTheirStartAreAccepted() throws {
        let text = Self.structured
            .replacingOccurrences(of: "from: Type", with: "from: [Type, ../name(), ../../@version]")
            .replacingOccurrences(of: "from: Id", with: "from: [Id, ../../Offices/Office/Id, ../../../name()]")
        let config = try PipelineConfigTests.load(text)
        #expect(config.mapping.fields[2].sources == ["Type", "../name()", "../../@version"])
        let path = try RecordPath(parsing: "../../Offices/Office/@id")
        #expect(path.up == 2 && path.steps.map(\.name) == ["Offices", "Office"] && path.attribute == "id")
        #expect(try RecordPath(parsing: "../name()").readsName)
        #expect(try RecordPath(parsing: "name()").steps.isEmpty)
    }
}
