/// A typed, normalized field value, held in the canonical text form PostgreSQL reads back exactly.
package enum Value: Sendable, Hashable {
    case text(String)
    case integer(Int64)
    /// A decimal in canonical form: no grouping, `.` separator, no trailing zeros beyond cents (`549000`, `12.5`).
    case decimal(String)
    case double(Double)
    /// `yyyy-MM-dd`.
    case date(String)
    /// UTC to the microsecond: `yyyy-MM-dd'T'HH:mm:ss'Z'` for a whole second, else with the fraction's digits,
    /// trailing zeros trimmed (`2014-07-29T17:46:37.263Z`). Order instants with `Value.timestamp(_:precedes:)`:
    /// plain lexical order puts `…:37.5Z` before `…:37Z`.
    case timestamp(String)
    case boolean(Bool)

    /// The text PostgreSQL's input functions (and COPY) accept for this value.
    package var sqlText: String {
        switch self {
        case .text(let s), .decimal(let s), .date(let s), .timestamp(let s): return s
        case .integer(let i): return String(i)
        case .double(let d): return String(d)
        case .boolean(let b): return b ? "true" : "false"
        }
    }

    /// Whether canonical timestamp text `a` is an earlier instant than `b`: byte order with the closing `Z` below
    /// every other byte, so a whole second comes before any fraction of it and `.25` before `.5`.
    package static func timestamp(_ a: String, precedes b: String) -> Bool {
        @inline(__always) func rank(_ byte: UInt8) -> UInt8 { byte == 0x5A ? 0 : byte }
        var left = a.utf8.makeIterator()
        var right = b.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case let (x?, y?) where x != y: return rank(x) < rank(y)
            case (.some, .some): continue
            case (nil, .some): return true
            default: return false
            }
        }
    }
}
