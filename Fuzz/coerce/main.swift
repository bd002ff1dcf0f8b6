// Fuzz target: the value coercions. Byte 0 picks a field (one plain field per type, then every field of the
// shipped mappings with their enum tables and bounds), byte 1 the source time zone (America/Los_Angeles,
// Australia/Lord_Howe with its 30-minute DST, or none); the rest is the raw text, cleaned as the normalizer does.
// A value that coerces must have its type's shape, and its canonical text must coerce to the same value.
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
    for name in names.sorted() where name.hasSuffix(".yaml") {
        do {
            let mapping = try Mapping(config: try ConfigNode.load(path: "\(folder)/\(name)", environment: [:]))
            fields += mapping.fields + mapping.embeddedAgent
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

/// Whether `value` has the form `field`'s type promises.
func hasShape(_ value: Value, of field: FieldMapping) -> Bool {
    func digits(_ text: String, at places: [Int]) -> Bool {
        let bytes = Array(text.utf8)
        return places.allSatisfy { bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }
    }
    switch (field.type, value) {
    case (.text, .text), (.enum, .text), (.phone, .text), (.email, .text), (.integer, .integer),
         (.boolean, .boolean), (.decimal, .decimal), (.money, .decimal):
        return true
    case (.latitude, .double(let d)): return d.isFinite && abs(d) <= 90 && d != 0
    case (.longitude, .double(let d)): return d.isFinite && abs(d) <= 180 && d != 0
    case (.postalCode, .text(let s)): return s.utf8.count == 5 || s.utf8.count == 10
    case (.date, .date(let s)): return s.utf8.count == 10 && digits(s, at: [0, 1, 2, 3, 5, 6, 8, 9])
    case (.timestamp, .timestamp(let s)):
        return s.utf8.count == 20 && s.hasSuffix("Z") && digits(s, at: [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18])
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
    do {
        coerced = try field.coerce(raw, zone: zone)
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
        let again = try field.coerce(canonical, zone: zone)
        Check.that(again == value, "\(what) is \(canonical.debugDescription), which is \(String(describing: again))")
    } catch {
        Check.that(false, "\(what) is \(canonical.debugDescription), which fails: \(error)")
    }
}
