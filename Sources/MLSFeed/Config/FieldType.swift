/// The type a mapping gives a canonical field, which decides how its raw text is coerced.
package enum FieldType: String, Sendable, Hashable, CaseIterable {
    case text, integer, decimal, money, date, timestamp, boolean, `enum`, phone, email
    case postalCode = "postal_code"
    case latitude, longitude
}

/// Why a raw value could not be coerced: the rule it broke, as shown in rejects and the run summary.
package struct CoercionFailure: Error, Sendable, Hashable {
    package var rule: String

    package init(_ rule: String) { self.rule = rule }
}
