import Foundation
import Testing
@testable import MLSFeed
import YAMLConfig

/// The field options of a mapping that steer coercion: `date_order`, `country`, and enum words.
@Suite struct FieldOptionsTests {
    static func mapping(_ fields: String) throws -> Mapping {
        let yaml = "entity: listing\nfields:\n  listing_id: { from: id, type: text }\n" + fields
        return try Mapping(config: ConfigNode(YAMLDocument.parse(yaml, file: "m.yaml", environment: [:]),
                                              file: "m.yaml"))
    }

    static func coerce(_ field: FieldMapping, _ raw: String) throws -> Value? {
        var issue: String?
        return try field.coerce(raw, zone: TimeZone(identifier: "America/Los_Angeles"), issue: &issue)
    }

    @Test func optionsAreReadAndApplied() throws {
        let mapping = try Self.mapping("""
              listing_contract_date: { from: d, type: date, date_order: dmy }
              modification_timestamp: { from: t, type: timestamp, date_order: ymd }
              postal_code: { from: z, type: postal_code, country: any }
              standard_status: { from: s, type: enum, values: { Active Under Contract: ActiveUnderContract } }
            """)
        let fields = Dictionary(uniqueKeysWithValues: mapping.fields.map { ($0.name, $0) })
        #expect(fields["listing_id"]?.dateOrder == .mdy)
        #expect(fields["listing_id"]?.country == .usOrCanada)
        #expect(try Self.coerce(fields["listing_contract_date"]!, "22/01/2019") == .date("2019-01-22"))
        #expect(try Self.coerce(fields["modification_timestamp"]!, "2019/01/22 17:17:29")
            == .timestamp("2019-01-23T01:17:29Z"))
        #expect(try Self.coerce(fields["postal_code"]!, "SW1A 1AA") == .text("SW1A 1AA"))
        #expect(try Self.coerce(fields["standard_status"]!, "active_under_contract") == .text("ActiveUnderContract"))
    }

    /// The options are part of the mapping's fingerprint seed: changing one makes every record read afresh.
    @Test func optionsChangeTheFingerprintSeed() throws {
        let zone = TimeZone(identifier: "America/Los_Angeles")
        let seeds = try ["", ", date_order: dmy", ", date_order: ymd"].map { option in
            RawHash(mapping: try Self.mapping("  listing_contract_date: { from: d, type: date\(option) }\n"),
                    zone: zone).seed
        }
        #expect(Set(seeds).count == 3)
        let postal = try ["", ", country: US", ", country: CA", ", country: any"].map { option in
            RawHash(mapping: try Self.mapping("  postal_code: { from: z, type: postal_code\(option) }\n"),
                    zone: zone).seed
        }
        #expect(Set(postal).count == 4)
    }

    @Test(arguments: [
        ("  city: { from: c, type: text, date_order: dmy }\n",
         #"m.yaml:4:44: error: fields.city.date_order: "date_order" only applies to types date and timestamp"#),
        ("  listing_contract_date: { from: d, type: date, date_order: DMY }\n",
         #"m.yaml:4:61: error: fields.listing_contract_date.date_order: expected one of: mdy, dmy, ymd, got "DMY""#),
        ("  postal_code: { from: z, type: text, country: US }\n",
         #"m.yaml:4:48: error: fields.postal_code.country: "country" only applies to type postal_code"#),
        ("  postal_code: { from: z, type: postal_code, country: UK }\n",
         #"m.yaml:4:55: error: fields.postal_code.country: expected one of: US, CA, any, got "UK""#),
        ("  standard_status: { from: s, type: enum, values: { Active_Under: Active, ActiveUnder: Pending } }\n",
         #"m.yaml:4:88: error: fields.standard_status.values.ActiveUnder: "ActiveUnder" and "Active_Under" are "#
            + #"the same word (case, spaces and underscores are ignored) but map to different values"#),
        ("  listing_contract_date: { from: d, type: date, default: \"2020-01-01 10:30\" }\n",
         #"m.yaml:4:58: error: fields.listing_contract_date.default: default "2020-01-01 10:30" has a time of day; "#
            + "give the date alone"),
    ])
    func mistakesAreReported(fields: String, expected: String) {
        #expect { _ = try Self.mapping(fields) } throws: { error in
            "\(error)" == expected
        }
    }

    /// Words that fold to one key may map to the same value (shipped mappings list both spellings).
    @Test func repeatedSpellingsOfOneWordAreAllowed() throws {
        let mapping = try Self.mapping("""
              standard_status:
                from: s
                type: enum
                values: { ActiveUnderContract: ActiveUnderContract, Active Under Contract: ActiveUnderContract }
            """)
        #expect(mapping.fields[1].enumValues == ["activeundercontract": "ActiveUnderContract"])
    }
}
