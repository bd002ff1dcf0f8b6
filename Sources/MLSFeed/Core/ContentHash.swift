/// A fast, stable 128-bit hash of a normalized row's content (not cryptographic: it detects change, not tampering).
///
/// Two 64-bit lanes mix the bytes a word at a time; the same content gives the same hex on every run and machine.
struct ContentHash {
    private var a: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var b: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private var length: UInt64 = 0

    mutating func update(_ text: String) {
        // In place for native and small strings (no copy of the string to make it mutable).
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if done == nil {
            var copy = text
            copy.withUTF8 { update(UnsafeRawBufferPointer($0)) }
        }
    }

    /// Mixes `bytes` in, a little-endian word at a time, then a tail word tagged with the length.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var i = 0
        let n = bytes.count
        while i + 8 <= n {
            // Little-endian word at any alignment: the same value on every machine this runs on.
            mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
            i += 8
        }
        // The last 0 to 7 bytes, little-endian, zero above: at most three loads instead of a loop over bytes.
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        if n - i >= 4 {
            tail = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt32.self)))
            shift = 32
            i += 4
        }
        if n - i >= 2 {
            tail |= UInt64(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt16.self))) << shift
            shift += 16
            i += 2
        }
        if i < n { tail |= UInt64(bytes[i]) << shift }
        mix(tail ^ (UInt64(n) << 56))
        length &+= UInt64(n)
    }

    /// A field separator that cannot be confused with content.
    mutating func separator() { mix(0xFFFF_FFFF_FFFF_FFFE) }

    mutating func mix(_ word: UInt64) {
        a = (a ^ word) &* 0x0000_0100_0000_01B3
        a ^= a >> 29
        b = (b &+ word) &* 0xFF51_AFD7_ED55_8CCD
        b ^= b >> 32
        b = (b << 13) | (b >> 51)
    }

    /// The 32 lowercase hex digits of both lanes, made in one allocation (one per record: it shows in profiles).
    func finalize() -> String {
        let (x, y) = lanes()
        return String(unsafeUninitializedCapacity: 32) { buffer in
            let digits: StaticString = "0123456789abcdef"
            for i in 0..<16 {
                let shift = UInt64(60 - 4 * i)
                buffer[i] = digits.utf8Start[Int((x >> shift) & 0xF)]
                buffer[16 + i] = digits.utf8Start[Int((y >> shift) & 0xF)]
            }
            return 32
        }
    }

    /// The 64-bit form (the first lane of `finalize`).
    func finalize64() -> UInt64 {
        lanes().0
    }

    private func lanes() -> (UInt64, UInt64) {
        var x = a ^ length
        var y = b &+ length
        x = (x ^ (x >> 33)) &* 0xC4CE_B9FE_1A85_EC53
        y = (y ^ (y >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        x ^= y >> 17
        y ^= x >> 31
        return (x, y)
    }
}

extension ContentHash {
    /// The hash of a row's typed values in column order (nil = NULL) and its `extra` (fields, or a structured
    /// record's JSON). Numbers are hashed by their bits, text by its UTF-8 bytes, each with a type tag.
    ///
    /// Stable as the schema grows: a record that does not carry every column (`absent`, see
    /// `NormalizedRecord.absent`) mixes its mask in first, and a column added after the first release
    /// (`Entity.firstReleaseColumns`) counts only when it holds a value, so existing rows keep their hashes.
    static func of(_ entity: Entity, columns: [Value?], extra: [RawField], absent: UInt64 = 0,
                   extraJSON: [UInt8]? = nil) -> String {
        var hash = ContentHash()
        if absent != 0 {
            hash.mix(0xAB)
            hash.mix(absent)
        }
        let always = entity.firstReleaseColumns
        // Through the buffers: each value borrowed, not copied (a copy retains and releases its string).
        columns.withUnsafeBufferPointer { columns in
            for index in columns.indices {
                switch columns[index] {
                case nil:
                    if index < always { hash.mix(0xA0) }
                    continue
                case .text(let s)?: hash.mix(0xA1); hash.update(s)
                case .decimal(let s)?: hash.mix(0xA2); hash.update(s)
                case .date(let s)?: hash.mix(0xA3); hash.update(s)
                case .timestamp(let s)?: hash.mix(0xA4); hash.update(s)
                case .integer(let i)?: hash.mix(0xA5); hash.mix(UInt64(bitPattern: i))
                case .double(let d)?: hash.mix(0xA6); hash.mix(d.bitPattern)
                case .boolean(let b)?: hash.mix(b ? 0xA7 : 0xA8)
                }
                if index >= always { hash.mix(0xAC &+ UInt64(index)) }
            }
        }
        extra.withUnsafeBufferPointer { extra in
            for i in extra.indices {
                hash.separator()
                hash.update(extra[i].key)
                hash.separator()
                hash.update(extra[i].value)
            }
        }
        if let extraJSON {
            hash.mix(0xAD)
            extraJSON.withUnsafeBytes { hash.update($0) }
        }
        return hash.finalize()
    }
}

extension NormalizedRecord {
    /// The content hash of the typed values (in column order) and `extra`; position and ordinal are not content.
    func computeContentHash() -> String {
        ContentHash.of(entity, columns: columns, extra: extra, absent: absent, extraJSON: extraJSON)
    }
}
