/// Why one field (or the record as a whole) failed: the field, the raw value and the rule it broke.
package struct RejectReason: Sendable, Hashable, CustomStringConvertible {
    /// Canonical field name, or `record` for whole-record defects.
    package var field: String
    package var rawValue: String?
    package var rule: String

    /// A reason; a raw value longer than `shownCharacters` is kept as its start and `…` (the reject's raw fields
    /// keep it whole).
    package init(field: String, rawValue: String?, rule: String) {
        self.field = field
        self.rawValue = rawValue.map(shortened)
        self.rule = rule
    }

    package var description: String {
        if let raw = rawValue { return "\(field): \(rule) (\(quoted(raw)))" }
        return "\(field): \(rule)"
    }
}

/// A record that failed validation, kept whole with its raw fields so it can be fixed and replayed.
package struct Reject: Sendable, Hashable {
    package var entity: Entity
    package var key: String?
    package var position: SourcePosition
    package var ordinal: Int
    package var reasons: [RejectReason]
    package var raw: [RawField]
    /// A structured record kept whole as JSON (elements as keys, `@attr` attributes, `#text` mixed text); nil for
    /// flat records, whose `raw` fields are the whole record.
    package var rawJSON: [UInt8]?

    /// A reject; a `key` longer than a key column takes (`Column.indexedTextBytes`) is no key and is dropped (it
    /// stays in `raw`).
    package init(entity: Entity, key: String?, position: SourcePosition, ordinal: Int, reasons: [RejectReason],
                raw: [RawField], rawJSON: [UInt8]? = nil) {
        self.entity = entity
        self.key = key.flatMap { $0.utf8.count > Column.indexedTextBytes ? nil : $0 }
        self.position = position
        self.ordinal = ordinal
        self.reasons = reasons
        self.raw = raw
        self.rawJSON = rawJSON
    }

    /// `file:line:col: error: MLS 230012345: list_price: not a price ("call agent"); ...`
    package var diagnostic: String {
        let who = key.map { "\(entity == .listing ? "MLS" : "agent") \($0): " } ?? ""
        return "\(position): error: \(who)\(reasons.map(\.description).joined(separator: "; "))"
    }
}

/// How many characters of a raw value a message shows (`shortened`).
let shownCharacters = 200

/// `raw`, or its first `shownCharacters` characters and `…` when it is longer.
func shortened(_ raw: String) -> String {
    guard raw.utf8.count > shownCharacters, raw.count > shownCharacters else { return raw }
    return String(raw.prefix(shownCharacters)) + "…"
}

/// A double-quoted rendering of a raw value for messages, with quotes and control characters escaped.
func quoted(_ raw: String) -> String {
    var out = "\""
    for scalar in raw.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case "\r": out += "\\r"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}
