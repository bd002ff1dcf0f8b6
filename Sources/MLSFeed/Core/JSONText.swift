/// Minimal, deterministic JSON text writing shared by the JSONL output and the loader's jsonb columns.
public enum JSONText {
    /// `s` as a JSON string literal.
    public static func string(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Raw fields as a JSON object in source order; a repeated key becomes an array of its values.
    /// This is the shape of the `extra` jsonb column.
    public static func object(_ fields: [RawField]) -> String {
        var order: [String] = []
        var grouped: [String: [String]] = [:]
        for field in fields {
            if grouped[field.key] == nil { order.append(field.key) }
            grouped[field.key, default: []].append(field.value)
        }
        let members = order.map { key -> String in
            let values = grouped[key]!
            let rendered = values.count == 1 ? string(values[0]) : "[" + values.map(string).joined(separator: ",") + "]"
            return string(key) + ":" + rendered
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// Raw fields as a JSON array of `[key, value]` pairs: order and repeats kept exactly (rejects' raw fields).
    public static func pairs(_ fields: [RawField]) -> String {
        "[" + fields.map { "[" + string($0.key) + "," + string($0.value) + "]" }.joined(separator: ",") + "]"
    }
}
