/// The shapes of postal codes, checked on UTF-8 bytes (the results are small strings: no allocation).
enum PostalCodes {
    /// A US ZIP (`92103`) or ZIP+4 (`92103-4411`, `92103 4411`, `921034411`) in canonical form, else nil.
    static func zip(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        func digits(_ range: Range<Int>) -> Bool { range.allSatisfy { b[$0] >= 0x30 && b[$0] <= 0x39 } }
        let plus4: Int
        switch b.count {
        case 5 where digits(0..<5): return String(decoding: b, as: UTF8.self)
        case 9 where digits(0..<9): plus4 = 5
        case 10 where digits(0..<5) && (b[5] == 0x2D || b[5] == 0x20) && digits(6..<10): plus4 = 6
        default: return nil
        }
        return String(unsafeUninitializedCapacity: 10) { out in
            for i in 0..<5 { out[i] = b[i] }
            out[5] = 0x2D
            for i in 0..<4 { out[6 + i] = b[plus4 + i] }
            return 10
        }
    }

    /// Letters a Canadian code never uses (D F I O Q U), and two more it never starts with (W Z).
    private static let neverUsed: Set<UInt8> = Set("DFIOQU".utf8)
    private static let neverFirst: Set<UInt8> = Set("WZ".utf8)

    /// A Canadian code (`L3C5J1`, `l3c 5j1`, `L3C-5J1`) as `L3C 5J1`, else nil.
    static func canadian(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        guard b.count == 6 || b.count == 7 && (b[3] == 0x20 || b[3] == 0x2D) else { return nil }
        var code: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0x20, 0, 0, 0)
        var ok = true
        withUnsafeMutableBytes(of: &code) { out in
            for i in 0..<6 {
                let byte = b[i < 3 || b.count == 6 ? i : i + 1]
                let upper = byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte
                let letter = i % 2 == 0
                if letter {
                    ok = ok && upper >= 0x41 && upper <= 0x5A && !neverUsed.contains(upper)
                        && !(i == 0 && neverFirst.contains(upper))
                } else {
                    ok = ok && upper >= 0x30 && upper <= 0x39
                }
                out[i < 3 ? i : i + 1] = upper
            }
        }
        guard ok else { return nil }
        return withUnsafeBytes(of: &code) { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether text could be another country's code: 2–12 letters, digits, spaces or dashes, with a digit.
    static func isPlausible(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard (2...12).contains(b.count), b.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        return b.allSatisfy { byte in
            let lower = byte | 0x20
            return byte >= 0x30 && byte <= 0x39 || lower >= 0x61 && lower <= 0x7A || byte == 0x20 || byte == 0x2D
        }
    }
}
