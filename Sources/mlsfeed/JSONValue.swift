import Foundation
import MLSFeed

/// A JSON value written with a fixed member order (for `--format json` output), strings escaped by `JSONText`.
enum JSONValue {
    case null
    case string(String)
    case int(Int64)
    case number(Double)
    case bool(Bool)
    /// JSON text used as is (a stored `jsonb`, an exact `numeric`).
    case raw(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// A string, or null.
    static func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
    /// An integer, or null.
    static func int(_ value: Int64?) -> JSONValue { value.map { .int($0) } ?? .null }
    /// A time as ISO 8601 UTC (`2026-11-29T01:02:03.250Z`), or null.
    static func time(_ value: Date?) -> JSONValue { value.map { .string(TimeText.iso($0)) } ?? .null }
    /// PostgreSQL `numeric` text as a JSON number (exact), or null.
    static func numeric(_ value: String?) -> JSONValue { value.map { .raw($0) } ?? .null }

    /// Valid JSON `text` without the white space between its tokens (strings are kept as they are).
    static func compacted(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var inString = false
        var escaped = false
        for byte in text.utf8 {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                out.append(byte)
            } else if byte == UInt8(ascii: "\"") {
                inString = true
                out.append(byte)
            } else if byte != 0x20 && byte != 0x0A && byte != 0x0D && byte != 0x09 {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Compact JSON text.
    var text: String {
        switch self {
        case .null: return "null"
        case .string(let value): return JSONText.string(value)
        case .int(let value): return String(value)
        case .number(let value): return value.isFinite ? String(format: "%.3f", value) : "null"
        case .bool(let value): return value ? "true" : "false"
        case .raw(let text): return text
        case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { JSONText.string($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }
}
