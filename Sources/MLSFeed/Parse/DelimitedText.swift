/// Splitting of delimiter-joined element text (triples lists, RETS rows) without a String per separator search.
enum DelimitedText {
    /// Calls `body` with each field's byte range of `bytes[range]`, split on the byte sequence `delimiter`.
    ///
    /// `n` delimiters give `n + 1` fields (an empty text is one empty field). Only the first `maxFields` fields,
    /// when given: the rest of the text is not searched.
    @inline(__always)
    static func forEachField(_ bytes: [UInt8], _ range: Range<Int>, delimiter: [UInt8], maxFields: Int = .max,
                             _ body: (Range<Int>) throws -> Void) rethrows {
        if delimiter.count == 1 {
            return try forEachField(bytes, range, byte: delimiter[0], maxFields: maxFields, body)
        }
        guard maxFields > 0 else { return }
        var left = maxFields
        var start = range.lowerBound, index = start
        while index + delimiter.count <= range.upperBound {
            if bytes[index] == delimiter[0] && bytes[index..<(index + delimiter.count)].elementsEqual(delimiter) {
                try body(start..<index)
                left -= 1
                if left == 0 { return }
                index += delimiter.count
                start = index
            } else {
                index += 1
            }
        }
        try body(start..<range.upperBound)
    }

    /// `forEachField` on a one-byte delimiter, eight bytes at a time: each word's delimiters are found at once
    /// (`matches`), so a field costs a few instructions, not a `memchr` call (a RETS row has 80 fields of about
    /// 14 bytes).
    @inline(__always)
    private static func forEachField(_ bytes: [UInt8], _ range: Range<Int>, byte: UInt8, maxFields: Int,
                                     _ body: (Range<Int>) throws -> Void) rethrows {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "range out of bounds")
        guard maxFields > 0 else { return }
        try bytes.withUnsafeBytes { buffer in
            let pattern = repeated(byte)
            var left = maxFields
            var start = range.lowerBound
            var index = range.lowerBound
            while index + 8 <= range.upperBound {
                var hits = matches(word(buffer, at: index), pattern)
                while hits != 0 {
                    let end = index + (hits.trailingZeroBitCount >> 3)
                    try body(start..<end)
                    left -= 1
                    if left == 0 { return }
                    start = end + 1
                    hits &= hits &- 1
                }
                index += 8
            }
            while index < range.upperBound {
                if buffer[index] == byte {
                    try body(start..<index)
                    left -= 1
                    if left == 0 { return }
                    start = index + 1
                }
                index += 1
            }
            try body(start..<range.upperBound)
        }
    }

    /// How many times `byte` occurs in `bytes[range]`, eight bytes at a time: a row's field count without
    /// splitting it.
    static func count(_ byte: UInt8, in bytes: [UInt8], _ range: Range<Int>) -> Int {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "range out of bounds")
        return bytes.withUnsafeBytes { buffer in
            let pattern = repeated(byte)
            var total = 0
            var index = range.lowerBound
            // A count per byte lane (up to 255 words), summed across the lanes: a popcount per word would cost a
            // dozen instructions, as the build targets x86-64 without POPCNT.
            var lanes: UInt64 = 0
            var words = 0
            while index + 8 <= range.upperBound {
                lanes &+= matches(word(buffer, at: index), pattern) >> 7
                index += 8
                words += 1
                if words == 255 {
                    total += sum(lanes)
                    lanes = 0
                    words = 0
                }
            }
            total += sum(lanes)
            while index < range.upperBound {
                if buffer[index] == byte { total += 1 }
                index += 1
            }
            return total
        }
    }

    /// `byte` in each of a word's eight bytes.
    @inline(__always)
    private static func repeated(_ byte: UInt8) -> UInt64 { UInt64(byte) &* 0x0101_0101_0101_0101 }

    /// The eight bytes at `offset`, the first in the low byte (on any machine).
    @inline(__always)
    private static func word(_ buffer: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// 0x80 in each byte of `word` equal to the byte `pattern` repeats, 0 in the others. Exact per byte:
    /// `(b & 0x7F) + 0x7F` sets a byte's high bit for any other low seven bits and cannot carry into the next
    /// byte, `| b` sets it for a high bit, so the high bit stays clear only where `b` (the byte xor the pattern) is 0.
    @inline(__always)
    private static func matches(_ word: UInt64, _ pattern: UInt64) -> UInt64 {
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let x = word ^ pattern
        return ~(((x & low7) &+ low7) | x) & ~low7
    }

    /// The sum of a word's eight byte lanes (each up to 255).
    @inline(__always)
    private static func sum(_ lanes: UInt64) -> Int {
        let pairs = (lanes & 0x00FF_00FF_00FF_00FF) &+ ((lanes >> 8) & 0x00FF_00FF_00FF_00FF)
        return Int((pairs &* 0x0001_0001_0001_0001) >> 48)
    }

    /// The field ranges of `bytes` split on `delimiter`.
    static func fields(_ bytes: [UInt8], _ range: Range<Int>, delimiter: [UInt8]) -> [Range<Int>] {
        var fields: [Range<Int>] = []
        forEachField(bytes, range, delimiter: delimiter) { fields.append($0) }
        return fields
    }

    /// `range` without leading and trailing bytes that `isTrimmed` accepts.
    static func trimmed(_ bytes: [UInt8], _ range: Range<Int>, _ isTrimmed: (UInt8) -> Bool) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper && isTrimmed(bytes[lower]) { lower += 1 }
        while upper > lower && isTrimmed(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// A RETS row's `range` without the line breaks at either end (unless `delimiter` is one).
    static func row(_ bytes: [UInt8], _ range: Range<Int>, delimiter: UInt8) -> Range<Int> {
        trimmed(bytes, range) { ($0 == 0x0A || $0 == 0x0D) && $0 != delimiter }
    }

    /// XML whitespace: space, tab, CR, LF.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The text of `range` as a String (the bytes are UTF-8 from libxml2).
    @inline(__always)
    static func string(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        range.isEmpty ? "" : String(decoding: bytes[range], as: UTF8.self)
    }

    /// `string` without leading and trailing XML whitespace.
    static func trimmed(_ string: String) -> String {
        let bytes = Array(string.utf8)
        return self.string(bytes, trimmed(bytes, bytes.indices, isWhitespace))
    }
}
