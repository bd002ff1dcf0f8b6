/// Minimal, deterministic JSON text writing shared by the JSONL output and the loader's jsonb columns.
///
/// Works on UTF-8 bytes: most feed text needs no escaping and is copied as is.
public enum JSONText {
    /// `s` as a JSON string literal.
    public static func string(_ s: String) -> String {
        var out: [UInt8] = []
        append(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Raw fields as a JSON object in source order; a repeated key becomes an array of its values.
    /// This is the shape of the `extra` jsonb column.
    public static func object(_ fields: [RawField]) -> String {
        var out: [UInt8] = [0x7B]
        out.reserveCapacity(fields.reduce(2) { $0 + $1.key.utf8.count + $1.value.utf8.count + 6 })
        var seen = Set<String>()
        var repeats = false
        for field in fields where !seen.insert(field.key).inserted { repeats = true }
        if !repeats {
            for (i, field) in fields.enumerated() {
                if i > 0 { out.append(0x2C) }
                append(field.key, to: &out)
                out.append(0x3A)
                append(field.value, to: &out)
            }
        } else {
            var order: [String] = []
            var grouped: [String: [String]] = [:]
            for field in fields {
                if grouped[field.key] == nil { order.append(field.key) }
                grouped[field.key, default: []].append(field.value)
            }
            for (i, key) in order.enumerated() {
                if i > 0 { out.append(0x2C) }
                append(key, to: &out)
                out.append(0x3A)
                let values = grouped[key]!
                if values.count == 1 {
                    append(values[0], to: &out)
                } else {
                    out.append(0x5B)
                    for (j, value) in values.enumerated() {
                        if j > 0 { out.append(0x2C) }
                        append(value, to: &out)
                    }
                    out.append(0x5D)
                }
            }
        }
        out.append(0x7D)
        return String(decoding: out, as: UTF8.self)
    }

    /// Raw fields as a JSON array of `[key, value]` pairs: order and repeats kept exactly (rejects' raw fields).
    public static func pairs(_ fields: [RawField]) -> String {
        var out: [UInt8] = [0x5B]
        for (i, field) in fields.enumerated() {
            if i > 0 { out.append(0x2C) }
            out.append(0x5B)
            append(field.key, to: &out)
            out.append(0x2C)
            append(field.value, to: &out)
            out.append(0x5D)
        }
        out.append(0x5D)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `s` as a JSON string literal: `"` and `\` escaped, control characters as `\n`, `\t`, `\r` or
    /// `\u00XX`; everything else (all of Unicode) copied as UTF-8.
    static func append(_ s: String, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { bytes in
            out.append(0x22)
            var start = 0
            for (i, b) in bytes.enumerated() where b < 0x20 || b == 0x22 || b == 0x5C {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                switch b {
                case 0x22: out += [0x5C, 0x22]
                case 0x5C: out += [0x5C, 0x5C]
                case 0x0A: out += [0x5C, 0x6E]
                case 0x0D: out += [0x5C, 0x72]
                case 0x09: out += [0x5C, 0x74]
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    out += [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]]
                }
                start = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
            out.append(0x22)
        }
    }
}
