import Foundation

extension FieldMapping {
    /// The rule counted when a `date` field's text carries a time of day: the date is kept, the time dropped.
    static let timeDroppedRule = "has a time of day, kept the date"

    /// Coerces trimmed, non-empty raw text by this field's type, options, enum table and bounds.
    /// Returns `nil` for a value that means "unknown" (a `0` coordinate). A value kept despite a flaw worth
    /// counting (a date written with a time of day) sets `issue` to the rule; it stays nil otherwise.
    package func coerce(_ raw: String, zone: TimeZone?, issue: inout String?) throws -> Value? {
        let value: Value?
        switch type {
        case .text: value = .text(raw)
        case .integer: value = .integer(try Coercion.integer(raw))
        case .decimal: value = .decimal(try Coercion.decimal(raw))
        case .money: value = .decimal(try Coercion.money(raw))
        case .date:
            let date = try Coercion.date(raw, order: dateOrder)
            if date.hadTime { issue = FieldMapping.timeDroppedRule }
            value = .date(date.date)
        case .timestamp: value = .timestamp(try Coercion.timestamp(raw, zone: zone, order: dateOrder))
        case .boolean: value = .boolean(try Coercion.boolean(raw))
        case .phone: value = .text(try Coercion.phone(raw))
        case .email: value = .text(try Coercion.email(raw))
        case .postalCode: value = .text(try Coercion.postalCode(raw, country: country))
        case .latitude: value = try Coercion.coordinate(raw, limit: 90).map(Value.double)
        case .longitude: value = try Coercion.coordinate(raw, limit: 180).map(Value.double)
        case .enum:
            if let word = enumValues[FieldMapping.enumKey(raw)] {
                value = .text(word)
            } else if onUnknown == .keep {
                value = .text(raw)
            } else {
                throw CoercionFailure(FieldMapping.unknownValueRule)
            }
        }
        if let value, minimum != nil || maximum != nil, let number = value.number {
            if let minimum, number < minimum { throw CoercionFailure("below minimum \(format(minimum))") }
            if let maximum, number > maximum { throw CoercionFailure("above maximum \(format(maximum))") }
        }
        if let limit = storageLimit, let number = value?.number, abs(number) > limit {
            let most = limit == limit.rounded() ? String(Int64(limit)) : String(format: "%.2f", limit)
            throw CoercionFailure("too large for the column (at most \(most))")
        }
        if let limit = byteLimit, case .text(let text)? = value, text.utf8.count > limit {
            throw CoercionFailure("longer than \(limit) bytes")
        }
        return value
    }

    private func format(_ bound: Double) -> String {
        bound == bound.rounded() && abs(bound) < 1e15 ? String(Int64(bound)) : String(bound)
    }
}

extension Value {
    /// The numeric value of integer, decimal and double values.
    var number: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .decimal(let s): return Double(s)
        case .double(let d): return d
        default: return nil
        }
    }
}
