/// Removes what PostgreSQL text cannot hold (NUL) and control characters XML 1.0 forbids, and trims.
enum TextCleaner {
    /// The cleaned text and how many characters were removed.
    static func clean(_ raw: String) -> (text: String, removed: Int) {
        var removed = 0
        var needsWork = false
        for byte in raw.utf8 where byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D || byte == 0x7F {
            needsWork = true
            break
        }
        guard needsWork else { return (trim(raw), 0) }
        var scalars = String.UnicodeScalarView()
        for scalar in raw.unicodeScalars {
            let v = scalar.value
            if (v < 0x20 && v != 0x09 && v != 0x0A && v != 0x0D) || v == 0x7F {
                removed += 1
            } else {
                scalars.append(scalar)
            }
        }
        return (trim(String(scalars)), removed)
    }

    /// Trims ASCII and Unicode white space at both ends without allocating when there is none.
    static func trim(_ s: String) -> String {
        guard let first = s.unicodeScalars.first, let last = s.unicodeScalars.last else { return s }
        if !first.properties.isWhitespace && !last.properties.isWhitespace { return s }
        let scalars = s.unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[start...end])
    }
}
