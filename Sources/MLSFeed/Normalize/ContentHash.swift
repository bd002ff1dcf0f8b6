/// A fast, stable 128-bit hash of a normalized row's content (not cryptographic: it detects change, not tampering).
///
/// Two 64-bit lanes mix the bytes a word at a time; the same content gives the same hex on every run and machine.
struct ContentHash {
    private var a: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var b: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private var length: UInt64 = 0

    mutating func update(_ text: String) {
        var copy = text
        copy.withUTF8 { bytes in
            var i = 0
            let n = bytes.count
            let base = UnsafeRawPointer(bytes.baseAddress)
            while i + 8 <= n, let base {
                // Little-endian word at any alignment: the same value on every machine this runs on.
                mix(UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
                i += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < n {
                tail |= UInt64(bytes[i]) << shift
                shift += 8
                i += 1
            }
            mix(tail ^ (UInt64(n) << 56))
        }
        length &+= UInt64(copy.utf8.count)
    }

    /// A field separator that cannot be confused with content.
    mutating func separator() { mix(0xFFFF_FFFF_FFFF_FFFE) }

    private mutating func mix(_ word: UInt64) {
        a = (a ^ word) &* 0x0000_0100_0000_01B3
        a ^= a >> 29
        b = (b &+ word) &* 0xFF51_AFD7_ED55_8CCD
        b ^= b >> 32
        b = (b << 13) | (b >> 51)
    }

    func finalize() -> String {
        var x = a ^ length
        var y = b &+ length
        x = (x ^ (x >> 33)) &* 0xC4CE_B9FE_1A85_EC53
        y = (y ^ (y >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        x ^= y >> 17
        y ^= x >> 31
        return hex(x) + hex(y)
    }

    private func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}

extension NormalizedRecord {
    /// The content hash of the typed values (in column order) and `extra`; position and ordinal are not content.
    func computeContentHash() -> String {
        var hash = ContentHash()
        for column in entity.columns {
            if let value = values[column.name] { hash.update(value.sqlText) } else { hash.update("\u{0}") }
            hash.separator()
        }
        for field in extra {
            hash.update(field.key)
            hash.separator()
            hash.update(field.value)
            hash.separator()
        }
        return hash.finalize()
    }
}
