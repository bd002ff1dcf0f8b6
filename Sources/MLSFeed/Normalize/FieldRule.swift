import Foundation

/// A field's mapping behind one reference, for normalize's per-record loops.
///
/// Calling a method of a `FieldMapping` read from an array copies it first (its name, sources, enum table and
/// default retained and released, for every field of every record); a method of this class borrows it.
final class FieldRule: Sendable {
    let field: FieldMapping

    init(_ field: FieldMapping) {
        self.field = field
    }

    /// `FieldMapping.coerce`, without the copy.
    func coerce(_ raw: String, zone: TimeZone?, issue: inout String?) throws -> Value? {
        try field.coerce(raw, zone: zone, issue: &issue)
    }
}
