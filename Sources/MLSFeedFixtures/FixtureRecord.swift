import MLSFeed

/// One generated listing's raw values, as bytes in a reused arena, plus how the writer should dirty it.
struct FixtureRecord {
    /// Every value's bytes, appended in any order; `spans` says where each field's value is.
    var bytes: [UInt8] = []
    var spans: [Range<Int>] = Array(repeating: 0..<0, count: FixtureField.count)
    /// Write the public remarks as a CDATA section.
    var cdataRemarks = false
    /// Write `"` in free text as `&quot;` (otherwise literally).
    var quoteEntities = false
    /// Count-mismatch dirt: a field whose text carries one extra delimiter (a leaked `|` or tab).
    var splitField: FixtureField?
    /// Count-mismatch dirt: a field left out of the row entirely (one value short).
    var skippedField: FixtureField?
    /// The listing the values were written from: its typed facts, for the formats with typed values.
    var listing: FixtureListing?

    init() {
        bytes.reserveCapacity(4096)
    }

    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        for i in spans.indices { spans[i] = 0..<0 }
        cdataRemarks = false
        quoteEntities = false
        splitField = nil
        skippedField = nil
        listing = nil
    }

    /// The value of a field as text (tests and truth only; the writer works on bytes).
    func text(_ field: FixtureField) -> String {
        String(decoding: bytes[spans[field.rawValue]], as: UTF8.self)
    }

    mutating func put(_ field: FixtureField, _ text: String) {
        let start = bytes.count
        bytes.append(contentsOf: text.utf8)
        spans[field.rawValue] = start..<bytes.count
    }

    mutating func putInt(_ field: FixtureField, _ value: Int) {
        let start = bytes.count
        appendInt(value)
        spans[field.rawValue] = start..<bytes.count
    }

    /// Starts a value built from several pieces; finish with `close(_:from:)`.
    var mark: Int { bytes.count }

    mutating func close(_ field: FixtureField, from start: Int) {
        spans[field.rawValue] = start..<bytes.count
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func appendInt(_ value: Int, width: Int = 0) {
        var v = value
        if v < 0 {
            bytes.append(UInt8(ascii: "-"))
            v = -v
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &digits) { buf in
            repeat {
                buf[n] = UInt8(48 + v % 10)
                v /= 10
                n += 1
            } while v > 0
            while n < width {
                buf[n] = 48
                n += 1
            }
            while n > 0 {
                n -= 1
                bytes.append(buf[n])
            }
        }
    }

    /// `1,850,000`-style grouping.
    mutating func appendGrouped(_ value: Int) {
        if value >= 1000 {
            appendGrouped(value / 1000)
            bytes.append(UInt8(ascii: ","))
            appendInt(value % 1000, width: 3)
        } else {
            appendInt(value)
        }
    }

    /// A fixed-point number with `places` decimals from `value * 10^places` (e.g. `32.748912`).
    mutating func appendFixed(_ scaled: Int, places: Int) {
        var p = 1
        for _ in 0..<places { p *= 10 }
        if scaled < 0 { bytes.append(UInt8(ascii: "-")) }
        let m = abs(scaled)
        appendInt(m / p)
        bytes.append(UInt8(ascii: "."))
        appendInt(m % p, width: places)
    }
}
