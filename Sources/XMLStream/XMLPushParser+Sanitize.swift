extension XMLPushParser {
    /// Whether `byte` is a C0 control character XML 1.0 forbids (all below 0x20 except tab, LF and CR).
    @inline(__always)
    static func isForbiddenControl(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D
    }

    /// `bytes` without forbidden control characters, or nil when there are none (the common case: no copy).
    ///
    /// Works on the raw bytes of any ASCII-compatible encoding (UTF-8, ISO-8859-x, Windows-125x), where these
    /// byte values never occur inside a multi-byte character.
    static func removingForbiddenControls(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        guard let first = bytes.firstIndex(where: isForbiddenControl) else { return nil }
        var cleaned: [UInt8] = []
        cleaned.reserveCapacity(bytes.count)
        cleaned.append(contentsOf: bytes[bytes.startIndex..<first])
        for byte in bytes[first...] where !isForbiddenControl(byte) {
            cleaned.append(byte)
        }
        return cleaned
    }
}
