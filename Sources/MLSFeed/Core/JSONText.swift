/// Minimal, deterministic JSON text writing shared by the JSONL output and the loader's jsonb columns.
///
/// Works on UTF-8 bytes: most feed text needs no escaping and is copied as is.
package enum JSONText {
    /// `s` as a JSON string literal.
    package static func string(_ s: String) -> String {
        var out: [UInt8] = []
        append(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Raw fields as a JSON object in source order; a repeated key becomes an array of its values.
    /// This is the shape of the `extra` jsonb column.
    package static func object(_ fields: [RawField]) -> String {
        var out: [UInt8] = []
        var writer = ObjectWriter()
        writer.append(fields, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Raw fields as a JSON object like `object`, the keys in `alwaysArrays` written as arrays even with one value
    /// (multi-value lookup fields: `{"Features": ["Pool"]}`, never sometimes a string).
    package static func object(_ fields: [RawField], alwaysArrays: Set<String>) -> [UInt8] {
        var order: [String] = []
        var grouped: [String: [String]] = [:]
        for field in fields {
            if grouped[field.key] == nil { order.append(field.key) }
            grouped[field.key, default: []].append(field.value)
        }
        var out: [UInt8] = [0x7B]
        for (i, key) in order.enumerated() {
            if i > 0 { out.append(0x2C) }
            append(key, to: &out)
            out.append(0x3A)
            let values = grouped[key]!
            if values.count == 1 && !alwaysArrays.contains(key) {
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
        out.append(0x7D)
        return out
    }

    /// `object` (a JSON object's text) with `fields` added as string members at its end, in order.
    package static func adding(_ fields: [RawField], to object: [UInt8]) -> [UInt8] {
        guard !fields.isEmpty, let close = object.lastIndex(of: 0x7D) else { return object }
        var out = Array(object[..<close])
        var empty = true
        for byte in out.reversed() where ![0x20, 0x09, 0x0A, 0x0D].contains(byte) {
            empty = byte == 0x7B
            break
        }
        for field in fields {
            if !empty { out.append(0x2C) }
            empty = false
            append(field.key, to: &out)
            out.append(0x3A)
            append(field.value, to: &out)
        }
        out.append(0x7D)
        return out
    }

    /// Writes `object`s one after the other, remembering a key list free of repeats that the lists seen so far follow
    /// (their union, while they order their keys alike): records of one feed share their keys, so the check for
    /// repeated keys is then a comparison of (shared) key strings.
    ///
    /// In `.storage` order (the loader's), the keys come out in the order jsonb stores them, so the server's sort of
    /// each object's keys finds them sorted (one comparison per key, not a sort per row); the stored jsonb is the
    /// same either way.
    package struct ObjectWriter {
        /// The order of an object's keys.
        package enum KeyOrder: Sendable {
            /// As the fields come (the JSONL output, `JSONText.object`).
            case source
            /// jsonb's: shorter keys (in UTF-8 bytes) first, then by their bytes.
            case storage
        }

        private let order: KeyOrder
        private var uniqueKeys: [String] = []
        /// Per entry of `uniqueKeys`: its place in jsonb's order (`.storage` only).
        private var ranks: [Int] = []
        /// Per rank: the index of the field with that key in the object being written, or -1.
        private var slots: [Int] = []
        /// Per field of the object being written: its entry in `uniqueKeys`.
        private var entries: [Int] = []
        /// Per entry of `uniqueKeys` (`.storage` only): `,"key":"` in `keyText` (a key's text is written once, not
        /// escaped again for every row; the first field of an object skips the comma).
        private var keyText: [UInt8] = []
        private var keyRanges: [Range<Int>] = []

        package init(order: KeyOrder = .source) {
            self.order = order
        }

        /// Appends `fields` as a JSON object (see `JSONText.object`), the keys in this writer's order.
        package mutating func append(_ fields: [RawField], to out: inout [UInt8]) {
            out.append(0x7B)
            if !keysAreUnique(fields) {
                appendGrouped(fields, to: &out)
            } else if order == .storage {
                for (i, entry) in entries.enumerated() { slots[ranks[entry]] = i }
                var first = true
                keyText.withUnsafeBufferPointer { keyText in
                    for rank in slots.indices where slots[rank] >= 0 {
                        let i = slots[rank]
                        let key = keyRanges[entries[i]]
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: keyText[(first ? 1 : 0) + key.lowerBound
                                                                                     ..< key.upperBound]))
                        first = false
                        JSONText.appendUnquoted(fields[i].value, to: &out)
                        out.append(0x22)
                        slots[rank] = -1
                    }
                }
            } else {
                for (i, field) in fields.enumerated() {
                    if i > 0 { out.append(0x2C) }
                    append(field, to: &out)
                }
            }
            out.append(0x7D)
        }

        private func append(_ field: RawField, to out: inout [UInt8]) {
            JSONText.append(field.key, to: &out)
            out.append(0x3A)
            JSONText.append(field.value, to: &out)
        }

        /// True when no key repeats; then `entries` holds each field's entry in `uniqueKeys` (`.storage` only).
        private mutating func keysAreUnique(_ fields: [RawField]) -> Bool {
            if isSubsequence(fields) { return true }
            var seen = Set<String>(minimumCapacity: fields.count)
            for field in fields where !seen.insert(field.key).inserted { return false }
            // The list grows to hold both (records leave out different empty fields), so that it stops changing.
            let keys = fields.map(\.key)
            if let union = JSONText.union(uniqueKeys, keys), union.count <= Self.maximumKeys {
                uniqueKeys = union
            } else {
                uniqueKeys = keys
            }
            if order == .storage {
                ranks = Array(repeating: 0, count: uniqueKeys.count)
                let sorted = uniqueKeys.indices.sorted { JSONText.storedBefore(uniqueKeys[$0], uniqueKeys[$1]) }
                for (rank, entry) in sorted.enumerated() { ranks[entry] = rank }
                slots = Array(repeating: -1, count: uniqueKeys.count)
                keyText = []
                keyRanges = uniqueKeys.map { key in
                    let start = keyText.count
                    keyText.append(0x2C)
                    JSONText.append(key, to: &keyText)
                    keyText += [0x3A, 0x22]
                    return start..<keyText.count
                }
            }
            return isSubsequence(fields)
        }

        /// The most keys the remembered list grows to.
        private static let maximumKeys = 1024

        /// True when `fields`' keys come in the order of the remembered repeat-free list (a subsequence of it), so
        /// that they do not repeat either; then `entries` holds each field's entry in the list (`.storage` only).
        private mutating func isSubsequence(_ fields: [RawField]) -> Bool {
            entries.removeAll(keepingCapacity: true)
            var j = 0
            for field in fields {
                while j < uniqueKeys.count && uniqueKeys[j] != field.key { j += 1 }
                if j == uniqueKeys.count { return false }
                if order == .storage { entries.append(j) }
                j += 1
            }
            return true
        }

        private func appendGrouped(_ fields: [RawField], to out: inout [UInt8]) {
            var keys: [String] = []
            var grouped: [String: [String]] = [:]
            for field in fields {
                if grouped[field.key] == nil { keys.append(field.key) }
                grouped[field.key, default: []].append(field.value)
            }
            if order == .storage { keys.sort(by: JSONText.storedBefore) }
            for (i, key) in keys.enumerated() {
                if i > 0 { out.append(0x2C) }
                JSONText.append(key, to: &out)
                out.append(0x3A)
                let values = grouped[key]!
                if values.count == 1 {
                    JSONText.append(values[0], to: &out)
                } else {
                    out.append(0x5B)
                    for (j, value) in values.enumerated() {
                        if j > 0 { out.append(0x2C) }
                        JSONText.append(value, to: &out)
                    }
                    out.append(0x5D)
                }
            }
        }
    }

    /// A repeat-free list of which the repeat-free lists `a` and `b` are both subsequences; nil when they order two
    /// keys differently.
    static func union(_ a: [String], _ b: [String]) -> [String]? {
        let (inA, inB) = (Set(a), Set(b))
        var union: [String] = []
        union.reserveCapacity(a.count + b.count)
        var (i, j) = (0, 0)
        while i < a.count || j < b.count {
            if i < a.count && j < b.count && a[i] == b[j] {
                union.append(a[i])
                (i, j) = (i + 1, j + 1)
            } else if j < b.count && !inA.contains(b[j]) {
                union.append(b[j])
                j += 1
            } else if i < a.count && !inB.contains(a[i]) {
                union.append(a[i])
                i += 1
            } else {
                return nil
            }
        }
        return union
    }

    /// True when jsonb stores key `a` before key `b` in an object: the shorter in UTF-8 bytes first, then by bytes.
    package static func storedBefore(_ a: String, _ b: String) -> Bool {
        let (x, y) = (a.utf8, b.utf8)
        if x.count != y.count { return x.count < y.count }
        return x.lexicographicallyPrecedes(y)
    }

    /// Raw fields as a JSON array of `[key, value]` pairs: order and repeats kept exactly (rejects' raw fields).
    package static func pairs(_ fields: [RawField]) -> String {
        String(decoding: pairsBytes(fields), as: UTF8.self)
    }

    /// `pairs` as UTF-8 bytes, in one buffer sized for the fields before it is filled.
    package static func pairsBytes(_ fields: [RawField]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(fields.reduce(2) { $0 + $1.key.utf8.count + $1.value.utf8.count + 8 })
        out.append(0x5B)
        for (i, field) in fields.enumerated() {
            if i > 0 { out.append(0x2C) }
            out.append(0x5B)
            append(field.key, to: &out)
            out.append(0x2C)
            append(field.value, to: &out)
            out.append(0x5D)
        }
        out.append(0x5D)
        return out
    }

    /// Appends `s` as a JSON string literal: `"` and `\` escaped, control characters as `\n`, `\t`, `\r` or
    /// `\u00XX`; everything else (all of Unicode) copied as UTF-8.
    static func append(_ s: String, to out: inout [UInt8]) {
        out.append(0x22)
        appendUnquoted(s, to: &out)
        out.append(0x22)
    }

    /// Appends `s` escaped as the inside of a JSON string literal (no quotes around it).
    @inline(__always)
    static func appendUnquoted(_ s: String, to out: inout [UInt8]) {
        // A String's bytes are UTF-8 already: no check. Native and small strings are contiguous (no copy).
        if s.utf8.withContiguousStorageIfAvailable({ appendValid($0, to: &out) }) == nil {
            var s = s
            s.withUTF8 { appendValid($0, to: &out) }
        }
    }

    /// Appends UTF-8 `bytes` escaped as the inside of a JSON string literal (no quotes around them).
    ///
    /// Bytes that are not UTF-8 (libxml2 passes a CDATA section through as it was read, even after an encoding
    /// error) become U+FFFD, as they do in a `String` of them, so the JSON stays valid.
    static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        if isPlain(bytes) { return out.append(contentsOf: bytes) }
        guard isUTF8(bytes) else {
            var text = String(decoding: bytes, as: UTF8.self)
            return text.withUTF8 { appendValid($0, to: &out) }
        }
        appendValid(bytes, to: &out)
    }

    /// Whether `bytes` are UTF-8, checked by the standard library's decoder without making a String.
    private static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.contains(where: { $0 >= 0x80 }) else { return true }
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// Whether `bytes` go into a JSON string as they are: ASCII with no control character, `"` or `\`. Eight
    /// bytes at a time: most feed text is plain and is then copied whole.
    static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var flagged: UInt64 = 0
        var i = 0
        while i + 8 <= bytes.count {
            flagged |= notPlain(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i += 8
        }
        var tail: UInt64 = 0x2020_2020_2020_2020  // the last 0 to 7 bytes over spaces (plain); order does not matter
        while i < bytes.count {
            tail = tail << 8 | UInt64(base[i])
            i += 1
        }
        return (flagged | notPlain(tail)) == 0
    }

    /// Nonzero when a byte of `word` is below 0x20, `"`, `\` or 0x80 and above (exact as a yes or no: the
    /// zero-byte tests have no false positives).
    @inline(__always)
    private static func notPlain(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let control = (word &- ones &* 0x20) & ~word
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        return (word | control | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash))
            & 0x8080_8080_8080_8080
    }

    /// `appendEscaped` of bytes known to be UTF-8.
    private static func appendValid(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        if isPlain(bytes) { return out.append(contentsOf: bytes) }
        var start = 0
        for i in bytes.indices {
            let b = bytes[i]
            guard b < 0x20 || b == 0x22 || b == 0x5C else { continue }
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
    }
}
