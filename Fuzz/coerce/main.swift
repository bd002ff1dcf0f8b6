// Fuzz target: the value coercions. Byte 0 picks a field (one plain field per type, one per `date_order` for dates
// and timestamps, one per `country` for postal codes, then every field of the shipped mappings and their
// `embedded_agents` with their enum tables and bounds), byte 1 the source time zone (America/Los_Angeles,
// Australia/Lord_Howe with its 30-minute DST, or none); the rest is the raw text, cleaned as the normalizer does.
// A value that coerces must have its type's shape (timestamps with up to six fraction digits, ZIP, ZIP+4 or
// Canadian postal codes), and its canonical text must coerce to the same value without an issue.
import Foundation
import FuzzSupport
import MLSFeed
import YAMLConfig

/// The fields to coerce by; run from the repository root, where `pipelines/mappings` is.
let fields: [FieldMapping] = {
    let folder = "pipelines/mappings"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    var fields = FieldType.allCases.filter { $0 != .enum }.map {
        FieldMapping(name: $0.rawValue, sources: [], type: $0)
    }
    for order in DateOrder.allCases {
        for type in [FieldType.date, .timestamp] {
            var field = FieldMapping(name: "\(type.rawValue) \(order.rawValue)", sources: [], type: type)
            field.dateOrder = order
            fields.append(field)
        }
    }
    for country in PostalCountry.allCases {
        var field = FieldMapping(name: "postal_code \(country.rawValue)", sources: [], type: .postalCode)
        field.country = country
        fields.append(field)
    }
    // A structured feed's mapping (paths, `each:`) is read with the prefixes its pipelines declare.
    var prefixes: Set<String> = []
    for pipeline in ShippedPipelines.load(where: { _ in true }) {
        if case .xml(let xml) = pipeline.parse.format { prefixes.formUnion(xml.namespaces.keys) }
    }
    for name in names.sorted() where name.hasSuffix(".yaml") {
        do {
            let node = try ConfigNode.load(path: "\(folder)/\(name)", environment: [:])
            let structured = PathRules(prefixes: prefixes)
            let mapping = try (try? Mapping(config: node)) ?? Mapping(config: node, paths: structured)
            fields += mapping.fields + mapping.embedded.flatMap(\.fields)
        } catch {
            fatalError("\(error)")
        }
    }
    precondition(fields.contains { $0.type == .enum }, "no enum field in \(folder): run from the repository root")
    return fields
}()
let zones = [TimeZone(identifier: "America/Los_Angeles"), TimeZone(identifier: "Australia/Lord_Howe"), nil]

/// Whether a canonical value of `field` is by design its own input: for an enum only when the table maps each
/// canonical word to itself.
func isIdempotent(_ field: FieldMapping) -> Bool {
    guard field.type == .enum else { return true }
    return field.enumValues.values.allSatisfy { field.enumValues[$0.lowercased()] == $0 }
}

/// Whether `text` is a US ZIP (`92103`), ZIP+4 (`92103-4411`) or Canadian code (`K1A 0B1`) as canonical.
func isCanonicalPostalCode(_ text: String, country: PostalCountry) -> Bool {
    let b = Array(text.utf8)
    let zip = b.count == 5 && digits(b, at: 0..<5)
        || b.count == 10 && digits(b, at: 0..<5) && b[5] == 0x2D && digits(b, at: 6..<10)
    let canadian = b.count == 7 && b[3] == 0x20 && [0, 2, 5].allSatisfy { b[$0] >= 0x41 && b[$0] <= 0x5A }
        && digits(b, at: 1..<2) && digits(b, at: 4..<5) && digits(b, at: 6..<7)
    switch country {
    case .us: return zip
    case .ca: return canadian
    case .usOrCanada: return zip || canadian
    case .any: return zip || canadian || (2...12).contains(b.count)
    }
}

/// Whether `bytes` are ASCII digits at `places`.
func digits(_ bytes: [UInt8], at places: some Sequence<Int>) -> Bool {
    places.allSatisfy { bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }
}

/// Whether `text` is a canonical UTC timestamp: `2014-07-29T17:46:37Z`, or with 1 to 6 fraction digits, the last
/// not 0 (`2014-07-29T17:46:37.263Z`).
func isCanonicalTimestamp(_ text: String) -> Bool {
    let b = Array(text.utf8)
    guard b.count >= 20, b.last == UInt8(ascii: "Z"), digits(b, at: [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]),
          b[4] == 0x2D, b[7] == 0x2D, b[10] == UInt8(ascii: "T"), b[13] == 0x3A, b[16] == 0x3A else { return false }
    if b.count == 20 { return true }
    return (22...27).contains(b.count) && b[19] == 0x2E && digits(b, at: 20..<(b.count - 1)) && b[b.count - 2] != 0x30
}

/// Whether `value` has the form `field`'s type promises.
func hasShape(_ value: Value, of field: FieldMapping) -> Bool {
    switch (field.type, value) {
    case (.text, .text), (.enum, .text), (.phone, .text), (.email, .text), (.integer, .integer),
         (.boolean, .boolean), (.decimal, .decimal), (.money, .decimal):
        return true
    case (.latitude, .double(let d)): return d.isFinite && abs(d) <= 90 && d != 0
    case (.longitude, .double(let d)): return d.isFinite && abs(d) <= 180 && d != 0
    case (.postalCode, .text(let s)): return isCanonicalPostalCode(s, country: field.country)
    case (.date, .date(let s)): return s.utf8.count == 10 && digits(Array(s.utf8), at: [0, 1, 2, 3, 5, 6, 8, 9])
    case (.timestamp, .timestamp(let s)): return isCanonicalTimestamp(s)
    default:
        return false
    }
}

LibFuzzer.run { bytes in
    var input = FuzzInput(bytes)
    let field = fields[Int(input.byte()) % fields.count]
    let zone = zones[Int(input.byte()) % zones.count]
    let raw = TextCleaner.clean(String(decoding: input.rest, as: UTF8.self)).text
    guard !raw.isEmpty else { return }
    let what = "\(field.name) (\(field.type)) of \(raw.debugDescription)"
    let coerced: Value?
    var issue: String?
    do {
        coerced = try field.coerce(raw, zone: zone, issue: &issue)
    } catch is CoercionFailure {
        return
    } catch {
        fatalError("fuzz invariant broken: \(what) threw \(error)")
    }
    guard let value = coerced else {
        Check.that(field.type == .latitude || field.type == .longitude, "\(what) is nil")
        return
    }
    Check.that(hasShape(value, of: field), "\(what) is \(value)")
    let canonical = value.sqlText
    Check.that(TextCleaner.clean(canonical).text == canonical, "\(what): \(canonical.debugDescription) not clean")
    guard isIdempotent(field) else { return }
    do {
        var again: String?
        let repeated = try field.coerce(canonical, zone: zone, issue: &again)
        Check.that(repeated == value,
                   "\(what) is \(canonical.debugDescription), which is \(String(describing: repeated))")
        Check.that(again == nil, "\(what) is \(canonical.debugDescription), which has an issue: \(again!)")
    } catch {
        Check.that(false, "\(what) is \(canonical.debugDescription), which fails: \(error)")
    }
}
