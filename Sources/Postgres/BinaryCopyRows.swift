/// Rows of a `COPY ... FROM STDIN (FORMAT binary)`, built in memory and sent by `Connection.enqueueCopy` (as
/// `takePayload`) or `Connection.copyIn(_:rows:)`.
///
/// Each value is written in its column type's binary form (what the type's receive function reads), so the server
/// parses no text for it: integers and floats as big-endian bits, dates and timestamps as counts from 2000-01-01,
/// numerics as base-10000 digits. A value must match its column's type exactly; the caller knows the table.
package struct BinaryCopyRows {
    /// `PGCOPY\n\377\r\n\0`: every binary COPY begins with it (`BinaryCopyReader` checks it).
    static let signature: [UInt8] = [0x50, 0x47, 0x43, 0x4F, 0x50, 0x59, 0x0A, 0xFF, 0x0D, 0x0A, 0x00]
    /// The signature, no flags, no header extension.
    private static let header: [UInt8] = signature + [0, 0, 0, 0, 0, 0, 0, 0]
    /// The bytes before the first row: a payload's rows begin at this offset.
    package static var headerCount: Int { header.count }
    /// The field count -1 that ends the data.
    package static let trailer: [UInt8] = [0xFF, 0xFF]

    /// The header and the rows so far.
    package private(set) var bytes: [UInt8]
    /// Rows begun so far.
    package private(set) var count = 0

    package init() {
        bytes = Self.header
    }

    /// No rows yet, written into `buffer` (emptied first; its capacity reused).
    package init(reusing buffer: consuming [UInt8]) {
        bytes = consume buffer
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: Self.header)
    }

    /// The whole COPY payload (header, rows, trailer), leaving no rows behind (in a new, small buffer).
    package mutating func takePayload() -> [UInt8] {
        var payload = Self.header
        swap(&payload, &bytes)
        payload.append(contentsOf: Self.trailer)
        count = 0
        return payload
    }

    /// Drops the rows, keeping the buffer's capacity.
    package mutating func removeAll() {
        bytes.removeSubrange(Self.header.count...)
        count = 0
    }

    /// Begins a row of `fields` values; append exactly that many.
    package mutating func beginRow(fields: Int) {
        count += 1
        append(UInt16(truncatingIfNeeded: fields))
    }

    /// A NULL.
    package mutating func null() {
        append(UInt32.max)
    }

    /// A `text` value.
    package mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { text($0) }
    }

    /// A `text` value given as UTF-8 bytes.
    package mutating func text(_ utf8: UnsafeBufferPointer<UInt8>) {
        append(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// A `jsonb` value given as JSON text (format version 1).
    package mutating func jsonb(_ utf8: UnsafeBufferPointer<UInt8>) {
        append(UInt32(utf8.count + 1))
        bytes.append(1)
        bytes.append(contentsOf: utf8)
    }

    /// A `boolean` value.
    package mutating func boolean(_ value: Bool) {
        append(UInt32(1))
        bytes.append(value ? 1 : 0)
    }

    /// An `integer` (int4) value.
    package mutating func int32(_ value: Int32) {
        append(UInt32(4))
        append(UInt32(bitPattern: value))
    }

    /// A `bigint` value.
    package mutating func int64(_ value: Int64) {
        append(UInt32(8))
        append(UInt64(bitPattern: value))
    }

    /// A `double precision` value.
    package mutating func float64(_ value: Double) {
        append(UInt32(8))
        append(value.bitPattern)
    }

    /// A `date`: days since 2000-01-01.
    package mutating func date(daysSince2000 days: Int32) {
        int32(days)
    }

    /// A `timestamp with time zone`: microseconds since 2000-01-01 00:00 UTC.
    package mutating func timestamp(microsecondsSince2000 micros: Int64) {
        int64(micros)
    }

    /// A `numeric` from plain decimal text (`-?[0-9]+(\.[0-9]+)?`, the scale as written, as `numeric_in` reads
    /// it); false, and nothing appended, when the text is not in that form.
    package mutating func numeric(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let form = NumericForm(text) else { return false }
        let integer = UnsafeBufferPointer(rebasing: text[form.integer])
        let fraction = UnsafeBufferPointer(rebasing: text[form.fraction])
        // Base-10000 digits aligned on the decimal point: the integer part padded on the left, the fraction on
        // the right, to whole groups of 4.
        let integerGroups = (integer.count + 3) / 4
        let fractionGroups = (fraction.count + 3) / 4
        var digits: [UInt16] = []
        digits.reserveCapacity(integerGroups + fractionGroups)
        let lead = integerGroups * 4 - integer.count
        for group in 0..<integerGroups {
            var digit: UInt16 = 0
            for position in 0..<4 {
                let index = group * 4 + position - lead
                digit = digit * 10 + (index >= 0 ? UInt16(integer[index] &- 0x30) : 0)
            }
            digits.append(digit)
        }
        for group in 0..<fractionGroups {
            var digit: UInt16 = 0
            for position in 0..<4 {
                let index = group * 4 + position
                digit = digit * 10 + (index < fraction.count ? UInt16(fraction[index] &- 0x30) : 0)
            }
            digits.append(digit)
        }
        var weight = integerGroups - 1
        var first = 0
        while first < digits.count && digits[first] == 0 {
            first += 1
            weight -= 1
        }
        var end = digits.count
        while end > first && digits[end - 1] == 0 { end -= 1 }
        let zero = first == end
        append(UInt32(8 + 2 * (end - first)))
        append(UInt16(end - first))
        append(UInt16(bitPattern: Int16(zero ? 0 : weight)))
        append(UInt16(form.negative && !zero ? 0x4000 : 0))
        append(UInt16(fraction.count))
        for digit in digits[first..<end] { append(digit) }
        return true
    }

    private mutating func append(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    private mutating func append(_ value: UInt32) {
        append(UInt16(truncatingIfNeeded: value >> 16))
        append(UInt16(truncatingIfNeeded: value))
    }

    private mutating func append(_ value: UInt64) {
        append(UInt32(truncatingIfNeeded: value >> 32))
        append(UInt32(truncatingIfNeeded: value))
    }
}

/// The parts of plain decimal text: sign, integer digits (leading zeros dropped) and fraction digits.
private struct NumericForm {
    var negative = false
    var integer: Range<Int>
    var fraction: Range<Int>

    /// Nil unless `text` is `-?[0-9]+(\.[0-9]+)?` with at most 1000 fraction digits and 100,000 integer digits.
    init?(_ text: UnsafeBufferPointer<UInt8>) {
        var index = 0
        if index < text.count && text[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        let integerStart = index
        while index < text.count && text[index] &- 0x30 < 10 { index += 1 }
        let integerEnd = index
        guard integerEnd > integerStart else { return nil }
        var fractionStart = index
        if index < text.count {
            guard text[index] == UInt8(ascii: ".") else { return nil }
            index += 1
            fractionStart = index
            while index < text.count && text[index] &- 0x30 < 10 { index += 1 }
            guard index == text.count, index > fractionStart else { return nil }
        }
        var significant = integerStart
        while significant < integerEnd && text[significant] == UInt8(ascii: "0") { significant += 1 }
        guard integerEnd - significant <= 100_000, index - fractionStart <= 1000 else { return nil }
        integer = significant..<integerEnd
        fraction = fractionStart..<index
    }
}
