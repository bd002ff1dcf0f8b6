/// The order of month, day and year in a slashed date (`03/04/2026`), a field's `date_order` option.
///
/// ISO dates with dashes (`2026-03-04`) are year-month-day whatever the order says.
package enum DateOrder: String, Sendable, Hashable, CaseIterable {
    /// `03/04/2026` is March 4 (US feeds; the default).
    case mdy
    /// `22/01/2019` is January 22.
    case dmy
    /// `2019/01/22`.
    case ymd
}
