/// Why one field (or the record as a whole) failed: the field, the raw value and the rule it broke.
package struct RejectReason: Sendable, Hashable, CustomStringConvertible {
    /// Canonical field name, or `record` for whole-record defects.
    package var field: String
    package var rawValue: String?
    package var rule: String

    package init(field: String, rawValue: String?, rule: String) {
        self.field = field
        self.rawValue = rawValue
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

    package init(entity: Entity, key: String?, position: SourcePosition, ordinal: Int, reasons: [RejectReason],
                raw: [RawField], rawJSON: [UInt8]? = nil) {
        self.entity = entity
        self.key = key
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
