/// Removes what PostgreSQL text cannot hold (NUL) and control characters XML 1.0 forbids, and trims.
package enum TextCleaner {
    /// The cleaned text and how many characters were removed. Works on UTF-8 bytes; the common case (no control
    /// characters, no surrounding white space) returns the string itself without copying.
    package static func clean(_ raw: String) -> (text: String, removed: Int) {
        // One pass over the bytes in place (no copy of the String) for the common case: nothing to remove or trim.
        if raw.utf8.withContiguousStorageIfAvailable(isClean) == true { return (raw, 0) }
        var text = raw
        let dirty = text.withUTF8 { bytes in bytes.contains { isControl($0) } }
        guard dirty else { return (trim(raw), 0) }
        var removed = 0
        let kept: [UInt8] = text.withUTF8 { bytes in
            bytes.filter { byte in
                if isControl(byte) { removed += 1; return false }
                return true
            }
        }
        return (trim(String(decoding: kept, as: UTF8.self)), removed)
    }

    /// True when `bytes` hold no control character and neither start nor end with white space (or with a byte of a
    /// non-ASCII character, which may be white space).
    private static func isClean(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return true }
        if first >= 0x80 || last >= 0x80 || isASCIISpace(first) || isASCIISpace(last) { return false }
        for byte in bytes where byte < 0x20 || byte == 0x7F {
            if isControl(byte) { return false }
        }
        return true
    }

    /// C0 controls other than tab, line feed and carriage return, and DEL.
    @inline(__always)
    private static func isControl(_ b: UInt8) -> Bool {
        (b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D) || b == 0x7F
    }

    @inline(__always)
    private static func isASCIISpace(_ b: UInt8) -> Bool {
        b == 0x20 || (b >= 0x09 && b <= 0x0D)
    }

    /// Trims white space at both ends; ASCII on bytes, other Unicode spaces (NBSP, ...) through scalar properties.
    static func trim(_ s: String) -> String {
        var text = s
        let (needs, ascii) = text.withUTF8 { bytes -> (Bool, Bool) in
            guard let first = bytes.first, let last = bytes.last else { return (false, true) }
            if first >= 0x80 || last >= 0x80 { return (true, false) }
            return (isASCIISpace(first) || isASCIISpace(last), true)
        }
        guard needs else { return s }
        if ascii {
            return text.withUTF8 { bytes in
                var start = 0
                var end = bytes.count
                while start < end && isASCIISpace(bytes[start]) { start += 1 }
                while end > start && isASCIISpace(bytes[end - 1]) { end -= 1 }
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<end])
                // Trailing or leading non-ASCII white space is handled below.
                let trimmed = String(decoding: slice, as: UTF8.self)
                if let f = slice.first, let l = slice.last, f >= 0x80 || l >= 0x80 { return unicodeTrim(trimmed) }
                return trimmed
            }
        }
        return unicodeTrim(s)
    }

    private static func unicodeTrim(_ s: String) -> String {
        let scalars = s.unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[start...end])
    }
}
