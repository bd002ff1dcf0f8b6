/// The fields of a feed date or timestamp, read from UTF-8 bytes without allocating.
///
/// Accepts
/// - ISO `yyyy-MM-dd`, or a slashed date in the field's `DateOrder` (`MM/dd/yyyy`, `dd/MM/yyyy` or `yyyy/MM/dd`,
///   one- or two-digit day and month), optionally followed by `T` or spaces and `H:mm[:ss[.f…]]` (1–9 fraction
///   digits), an optional `AM`/`PM` (12-hour clock) and an optional zone: `Z`, `UTC`, `GMT`, `±hh:mm`, `±hhmm`
///   or `±hh`;
/// - RFC 1123 `[Thu, ]21 Feb 2019 23:40:21 GMT` (English month and day names, any case; the zone as above).
///
/// A bare date is midnight. The fraction is rounded to the microsecond half to even (PostgreSQL keeps
/// microseconds and also rounds): `.2634565` → 263456, `.2634575` → 263458; `.9999995` gives 1_000_000, which the
/// caller carries into the next second.
struct TimestampParts {
    var year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0
    /// Microseconds past `second`, 0...1_000_000 (1_000_000 only when rounding carries).
    var microsecond = 0
    /// Whether the text had a clock time that is not exactly midnight (a non-zero fraction digit counts).
    var hasTimeOfDay = false
    /// Seconds east of UTC when the text carries a zone.
    var offset: Int?

    init?(bytes b: UnsafeBufferPointer<UInt8>, order: DateOrder = .mdy) {
        var cursor = Cursor(b: b)
        let first = cursor.number(maxDigits: 4)
        if first.digits == 0 {
            // RFC 1123 with a day name.
            guard cursor.i + 3 < b.count, Cursor.dayNames.contains(cursor.letters(3)) else { return nil }
            cursor.i += 3
            guard !cursor.atEnd, cursor.byte == 0x2C else { return nil }
            cursor.i += 1
            cursor.skipSpaces()
            let d = cursor.number(maxDigits: 2)
            guard d.digits > 0, readRFC1123(&cursor, day: d.value) else { return nil }
        } else if first.digits <= 2, !cursor.atEnd, cursor.byte == 0x20 {
            guard readRFC1123(&cursor, day: first.value) else { return nil }
        } else {
            guard readNumericDate(&cursor, first: first, order: order) else { return nil }
            if cursor.atEnd { return }
            guard cursor.byte == 0x54 || cursor.byte == 0x74 || cursor.byte == 0x20 else { return nil }
            cursor.i += 1
            cursor.skipSpaces()
            guard readClock(&cursor) else { return nil }
        }
        guard cursor.atEnd, (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else {
            return nil
        }
    }

    /// `yyyy-MM-dd` or a slashed date in `order`, after its `first` number.
    @inline(__always)
    private mutating func readNumericDate(_ c: inout Cursor, first: (value: Int, digits: Int), order: DateOrder)
        -> Bool {
        guard !c.atEnd else { return false }
        let separator = c.byte
        guard separator == 0x2D || separator == 0x2F else { return false }
        if separator == 0x2D || order == .ymd {
            // Year first: ISO with dashes (in any order setting), or slashes when the order says so.
            guard first.digits == 4 else { return false }
            c.i += 1
            let m = c.number(maxDigits: 2)
            guard m.digits > 0, !c.atEnd, c.byte == separator else { return false }
            c.i += 1
            let d = c.number(maxDigits: 2)
            guard d.digits > 0 else { return false }
            (year, month, day) = (first.value, m.value, d.value)
            return true
        }
        guard first.digits <= 2 else { return false }
        c.i += 1
        let second = c.number(maxDigits: 2)
        guard second.digits > 0, !c.atEnd, c.byte == 0x2F else { return false }
        c.i += 1
        let y = c.number(maxDigits: 4)
        guard y.digits == 4 else { return false }
        year = y.value
        (month, day) = order == .dmy ? (second.value, first.value) : (first.value, second.value)
        return true
    }

    /// `H:mm[:ss[.fraction]]`, then an optional `AM`/`PM` and an optional zone, spaces allowed between them.
    @inline(__always)
    private mutating func readClock(_ c: inout Cursor) -> Bool {
        let h = c.number(maxDigits: 2)
        guard h.digits > 0, !c.atEnd, c.byte == 0x3A else { return false }
        c.i += 1
        let m = c.number(maxDigits: 2)
        guard m.digits == 2 else { return false }
        (hour, minute) = (h.value, m.value)
        if !c.atEnd, c.byte == 0x3A {
            c.i += 1
            let s = c.number(maxDigits: 2)
            guard s.digits == 2 else { return false }
            second = s.value
            if !c.atEnd, c.byte == 0x2E {
                c.i += 1
                guard readFraction(&c) else { return false }
            }
        }
        c.skipSpaces()
        // 12-hour clock.
        if c.i + 1 < c.b.count, (c.byte | 0x20) == 0x61 || (c.byte | 0x20) == 0x70, (c.b[c.i + 1] | 0x20) == 0x6D {
            guard (1...12).contains(hour) else { return false }
            let pm = (c.byte | 0x20) == 0x70
            hour = hour % 12 + (pm ? 12 : 0)
            c.i += 2
            c.skipSpaces()
        }
        // A non-zero fraction digit has set it already.
        hasTimeOfDay = hasTimeOfDay || hour != 0 || minute != 0 || second != 0
        return readZone(&c)
    }

    /// 1–9 digits of a fraction of a second, rounded half to even to the microsecond.
    private mutating func readFraction(_ c: inout Cursor) -> Bool {
        var micro = 0
        var digits = 0
        var firstDropped: UInt8 = 0x30
        var laterDropped = false
        while !c.atEnd, c.byte >= 0x30, c.byte <= 0x39 {
            let digit = c.byte
            if digit != 0x30 { hasTimeOfDay = true }
            if digits < 6 {
                micro = micro * 10 + Int(digit - 0x30)
            } else if digits == 6 {
                firstDropped = digit
            } else if digit != 0x30 {
                laterDropped = true
            }
            digits += 1
            c.i += 1
        }
        guard (1...9).contains(digits) else { return false }
        if digits < 6 {
            for _ in digits..<6 { micro *= 10 }
        }
        if firstDropped > 0x35 || firstDropped == 0x35 && (laterDropped || micro % 2 == 1) { micro += 1 }
        microsecond = micro
        return true
    }

    /// An optional `Z`, `UTC`, `GMT`, `UT` or numeric offset (`±hh:mm`, `±hhmm`, `±hh`), then the end.
    @inline(__always)
    private mutating func readZone(_ c: inout Cursor) -> Bool {
        if c.atEnd { return true }
        if c.byte == 0x2B || c.byte == 0x2D {
            let sign = c.byte == 0x2D ? -1 : 1
            c.i += 1
            let oh = c.number(maxDigits: 2)
            guard oh.digits == 2, oh.value <= 23 else { return false }
            var minutes = 0
            if !c.atEnd {
                if c.byte == 0x3A { c.i += 1 }
                let om = c.number(maxDigits: 2)
                guard om.digits == 2, om.value <= 59 else { return false }
                minutes = om.value
            }
            offset = sign * (oh.value * 3600 + minutes * 60)
            return true
        }
        let rest = c.b.count - c.i
        let word = c.letters(rest)
        guard Cursor.utcNames.contains(word) else { return false }
        c.i = c.b.count
        offset = 0
        return true
    }

    /// The rest of `[Ddd, ]d Mon yyyy HH:mm[:ss] zone` after the `day`: spaces, month, year and clock.
    private mutating func readRFC1123(_ c: inout Cursor, day: Int) -> Bool {
        guard c.skipSpaces() > 0, c.i + 3 <= c.b.count else { return false }
        guard let m = Cursor.monthNames.firstIndex(of: c.letters(3)) else { return false }
        c.i += 3
        guard c.skipSpaces() > 0 else { return false }
        let y = c.number(maxDigits: 4)
        guard y.digits == 4, c.skipSpaces() > 0 else { return false }
        (year, month, self.day) = (y.value, m + 1, day)
        return readClock(&c)
    }

    /// A read position in the bytes.
    private struct Cursor {
        let b: UnsafeBufferPointer<UInt8>
        var i = 0

        static let dayNames: [UInt32] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map(pack)
        static let monthNames: [UInt32] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                                           "nov", "dec"].map(pack)
        static let utcNames: [UInt32] = ["z", "utc", "gmt", "ut"].map(pack)

        var atEnd: Bool { i >= b.count }
        var byte: UInt8 { b[i] }

        /// Up to `maxDigits` digits as a number, and how many there were.
        @inline(__always)
        mutating func number(maxDigits: Int) -> (value: Int, digits: Int) {
            var value = 0
            var digits = 0
            while i < b.count, digits < maxDigits, b[i] >= 0x30, b[i] <= 0x39 {
                value = value * 10 + Int(b[i] - 0x30)
                digits += 1
                i += 1
            }
            return (value, digits)
        }

        /// Skips spaces and says how many there were.
        @discardableResult @inline(__always)
        mutating func skipSpaces() -> Int {
            let start = i
            while i < b.count, b[i] == 0x20 { i += 1 }
            return i - start
        }

        /// The next `count` (at most 3) bytes lower-cased and packed, without moving; 0 when they are not letters.
        func letters(_ count: Int) -> UInt32 {
            guard count <= 3, i + count <= b.count else { return 0 }
            var packed: UInt32 = 0
            for j in i..<(i + count) {
                let lower = b[j] | 0x20
                guard lower >= 0x61, lower <= 0x7A else { return 0 }
                packed = packed << 8 | UInt32(lower)
            }
            return packed
        }

        /// The packed form `letters` gives for a lower-case word of up to 3 letters.
        static func pack(_ word: String) -> UInt32 {
            word.utf8.reduce(0) { $0 << 8 | UInt32($1) }
        }
    }
}
