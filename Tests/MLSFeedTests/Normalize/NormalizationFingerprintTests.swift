import Foundation
import Testing
@testable import MLSFeed
import YAMLConfig

/// The guard of `RawHash.normalizationVersion`: a stored listing is recognised by the fingerprint of its raw record
/// and the version, and then not normalized again, so a change of what normalization makes of a record must change
/// the version or stored rows silently keep the old result.
///
/// A fixed corpus (`Fixtures/normalize/corpus.tsv`: every field type, good and bad values, field options) is
/// normalized and validated in two time zones; the digest of the outputs must be the one recorded for the current
/// version. Changing the corpus changes the digest too: do it together with a normalization change.
@Suite struct NormalizationFingerprintTests {
    /// The digest of the corpus outputs under each normalization version.
    static let digests: [String: String] = [
        "mlsfeed-normalize-2": "54e146736c6f9a31508f39d51b4bdd2a",
        // Values too large for their column (integers, prices) became rejects; the corpus's text column has no bound.
        "mlsfeed-normalize-3": "54e146736c6f9a31508f39d51b4bdd2a",
        // A bad optional value's text goes to `extra` (`_invalid.<column>`), as does an unchosen alternate; enum
        // fields have `on_unknown`. The outputs now show `extra`.
        "mlsfeed-normalize-4": "2017570a8325b7e4f7c559f01a5deb28",
    ]

    static let zones = ["America/Los_Angeles", "Australia/Sydney"]

    /// One line per corpus entry and zone: zone, spec, raw value, and what normalize and validate made of it.
    static func outputs() throws -> [String] {
        guard let url = Bundle.module.url(forResource: "corpus", withExtension: "tsv",
                                          subdirectory: "Fixtures/normalize") else {
            throw CocoaError(.fileNoSuchFile)
        }
        let entries = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }
            .map { line in
                let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
                return (spec: String(parts[0]), raw: parts.count > 1 ? String(parts[1]) : "")
            }
        var mappings: [String: Mapping] = [:]
        for spec in Set(entries.map(\.spec)) { mappings[spec] = try mapping(spec) }
        var lines: [String] = []
        for name in zones {
            let zone = try #require(TimeZone(identifier: name))
            for (spec, raw) in entries {
                let mapping = mappings[spec]!
                let record = RawRecord(fields: [RawField("id", "1"), RawField("v", raw)],
                                       position: SourcePosition(file: "corpus.tsv", line: 1, column: 1), ordinal: 0)
                let coerced = Normalizer(mapping: mapping, zone: zone).process([record])
                let out = Validator(mapping: mapping).process(coerced)
                lines.append([name, spec, raw, describe(out)].joined(separator: "\t"))
            }
        }
        return lines
    }

    /// A listing mapping with the key and one field `public_remarks` read from `v` by `spec`.
    static func mapping(_ spec: String) throws -> Mapping {
        let yaml = """
            entity: listing
            fields:
              listing_id: { from: id, type: text, required: true }
              public_remarks: { from: v, \(spec) }
            """
        return try Mapping(config: ConfigNode(YAMLDocument.parse(yaml, file: "corpus.yaml", environment: [:]),
                                              file: "corpus.yaml"))
    }

    static func describe(_ out: ValidatedBatch) -> String {
        if let reject = out.rejects.first {
            return "reject " + reject.reasons.map { "\($0.rule) (\($0.rawValue ?? "-"))" }.joined(separator: "; ")
        }
        let value: String = switch out.records.first?.values["public_remarks"] {
        case .text(let s)?: "text \(s)"
        case .integer(let i)?: "integer \(i)"
        case .decimal(let s)?: "decimal \(s)"
        case .double(let d)?: "double \(d)"
        case .date(let s)?: "date \(s)"
        case .timestamp(let s)?: "timestamp \(s)"
        case .boolean(let b)?: "boolean \(b)"
        case nil: "NULL"
        }
        let removed = out.removedCharacters > 0 ? ["\(out.removedCharacters) characters removed"] : []
        let extra = out.records.first.map { record in
            record.extraJSON.map { String(decoding: $0, as: UTF8.self) } ?? JSONText.object(record.extra)
        }.flatMap { $0 == "{}" ? nil : ["extra " + $0] } ?? []
        return ([value] + out.issues.lines + removed + extra).joined(separator: " | ")
    }

    static func digest(_ lines: [String]) -> String {
        var hash = ContentHash()
        for line in lines {
            hash.update(line)
            hash.separator()
        }
        return hash.finalize()
    }

    @Test func outputsMatchTheNormalizationVersion() throws {
        let digest = Self.digest(try Self.outputs())
        let version = RawHash.normalizationVersion
        guard let recorded = Self.digests[version] else {
            Issue.record("""
                RawHash.normalizationVersion "\(version)" has no digest: add "\(version)": "\(digest)" to \
                NormalizationFingerprintTests.digests
                """)
            return
        }
        #expect(recorded == digest, """
            normalization outputs changed (corpus digest \(digest), recorded for "\(version)": \(recorded)): \
            bump RawHash.normalizationVersion and add a row "<new version>": "\(digest)" to \
            NormalizationFingerprintTests.digests (set MLSFEED_PRINT_CORPUS=1 to print the outputs)
            """)
        if ProcessInfo.processInfo.environment["MLSFEED_PRINT_CORPUS"] != nil {
            print(try Self.outputs().joined(separator: "\n"))
        }
    }

    /// The corpus exercises every field type in both zones, and the digest sees a change of a single output.
    @Test func corpusCoversEveryTypeAndTheDigestSeesOneChange() throws {
        let lines = try Self.outputs()
        for type in FieldType.allCases {
            #expect(lines.contains { $0.contains("\ttype: \(type.rawValue)") }, "no corpus line of type \(type)")
        }
        #expect(lines.count % Self.zones.count == 0)
        // The zones disagree on naive timestamps, so both really take part.
        let half = lines.count / Self.zones.count
        let differing = zip(lines[..<half], lines[half...]).filter { $0.0.split(separator: "\t").last
            != $0.1.split(separator: "\t").last }
        #expect(differing.count > 10)
        var changed = lines
        changed[changed.count / 2] += " "
        #expect(Self.digest(changed) != Self.digest(lines))
    }
}
