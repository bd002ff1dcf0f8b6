import MLSFeed

/// JSON text encoding of generated values into a byte buffer.
enum FixtureJSONText {
    /// `bytes[span]` as a JSON string: `"` `\` and control characters escaped; with `asciiOnly`, every non-ASCII
    /// character as `\uXXXX` (surrogate pairs beyond the BMP), as some servers write them.
    static func string(_ bytes: [UInt8], _ span: Range<Int>, asciiOnly: Bool, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var run = span.lowerBound
        var i = span.lowerBound
        while i < span.upperBound {
            let byte = bytes[i]
            if byte >= 0x20 && byte != 0x22 && byte != 0x5C && (byte < 0x80 || !asciiOnly) {
                i += 1
                continue
            }
            out.append(contentsOf: bytes[run..<i])
            if byte >= 0x80 {
                var end = i + 1
                while end < span.upperBound && bytes[end] & 0xC0 == 0x80 { end += 1 }
                for scalar in String(decoding: bytes[i..<end], as: UTF8.self).unicodeScalars {
                    for unit in String(scalar).utf16 { escape(unit, into: &out) }
                }
                i = end
            } else {
                switch byte {
                case 0x22: out.append(contentsOf: "\\\"".utf8)
                case 0x5C: out.append(contentsOf: "\\\\".utf8)
                case 0x0A: out.append(contentsOf: "\\n".utf8)
                case 0x09: out.append(contentsOf: "\\t".utf8)
                case 0x0D: out.append(contentsOf: "\\r".utf8)
                default: escape(UInt16(byte), into: &out)
                }
                i += 1
            }
            run = i
        }
        out.append(contentsOf: bytes[run..<span.upperBound])
        out.append(UInt8(ascii: "\""))
    }

    /// `text` as a JSON string.
    static func string(_ text: String, asciiOnly: Bool = false, into out: inout [UInt8]) {
        let bytes = Array(text.utf8)
        string(bytes, 0..<bytes.count, asciiOnly: asciiOnly, into: &out)
    }

    /// `,"name":` (without the comma for the first member of an object).
    static func key(_ name: String, first: inout Bool, into out: inout [UInt8]) {
        if !first { out.append(UInt8(ascii: ",")) }
        first = false
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: name.utf8)
        out.append(contentsOf: "\":".utf8)
    }

    private static func escape(_ unit: UInt16, into out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(contentsOf: "\\u".utf8)
        for shift in stride(from: 12, through: 0, by: -4) { out.append(hex[Int(unit >> UInt16(shift)) & 0xF]) }
    }
}
