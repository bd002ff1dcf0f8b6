/// A typed, normalized field value, held in the canonical text form PostgreSQL reads back exactly.
public enum Value: Sendable, Hashable {
    case text(String)
    case integer(Int64)
    /// A decimal in canonical form: no grouping, `.` separator, no trailing zeros beyond cents (`549000`, `12.5`).
    case decimal(String)
    case double(Double)
    /// `yyyy-MM-dd`.
    case date(String)
    /// UTC, `yyyy-MM-dd'T'HH:mm:ss'Z'`: lexical order is time order.
    case timestamp(String)
    case boolean(Bool)

    /// The text PostgreSQL's input functions (and COPY) accept for this value.
    public var sqlText: String {
        switch self {
        case .text(let s), .decimal(let s), .date(let s), .timestamp(let s): return s
        case .integer(let i): return String(i)
        case .double(let d): return String(d)
        case .boolean(let b): return b ? "true" : "false"
        }
    }
}
