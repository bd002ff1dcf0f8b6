import XMLStream

/// Splitting of delimiter-joined element text (triples lists, RETS rows) without a String per separator search.
enum DelimitedText {
    /// Calls `body` with each field's byte range of `bytes`, split on the byte sequence `delimiter`.
    ///
    /// `n` delimiters give `n + 1` fields (an empty text is one empty field). Only the first `maxFields` fields,
    /// when given: the rest of the text is not searched.
    @inline(__always)
    static func forEachField(_ bytes: [UInt8], _ range: Range<Int>, delimiter: [UInt8], maxFields: Int = .max,
                             _ body: (Range<Int>) throws -> Void) rethrows {
        if delimiter.count == 1 {
            return try XMLPushParser.forEachField(in: bytes, range, separator: delimiter[0], maxFields: maxFields, body)
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

    /// How many times `byte` occurs in `bytes[range]`, eight bytes at a time: a row's field count without a
    /// `memchr` call per field.
    static func count(_ byte: UInt8, in bytes: [UInt8], _ range: Range<Int>) -> Int {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "range out of bounds")
        return bytes.withUnsafeBytes { buffer in
            let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
            let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
            var total = 0
            var index = range.lowerBound
            while index + 8 <= range.upperBound {
                let x = buffer.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ pattern
                // A byte's high bit is set in `zero` exactly when that byte of `x` is 0: `(b & 0x7F) + 0x7F` sets
                // it for any other low seven bits and cannot carry into the next byte, `| x` for a high bit.
                let zero = ~(((x & low7) &+ low7) | x) & ~low7
                total += zero.nonzeroBitCount
                index += 8
            }
            while index < range.upperBound {
                if buffer[index] == byte { total += 1 }
                index += 1
            }
            return total
        }
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
