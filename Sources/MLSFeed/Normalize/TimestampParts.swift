/// The fields of a feed timestamp, read from UTF-8 bytes without allocating.
///
/// Accepts `yyyy-MM-dd` or `M/d/yyyy`, optionally followed by `T` or a space and `H:mm[:ss[.fff]]`, an optional
/// `AM`/`PM` (12-hour clock) and an optional `Z` or `±hh:mm` / `±hhmm` offset. A bare date is midnight.
struct TimestampParts {
    var year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0
    /// Seconds east of UTC when the text carries an offset.
    var offset: Int?

    init?(bytes b: UnsafeBufferPointer<UInt8>) {
        var i = 0
        let n = b.count
        func number(maxDigits: Int) -> (value: Int, digits: Int) {
            var value = 0
            var digits = 0
            while i < n, digits < maxDigits, b[i] >= 0x30, b[i] <= 0x39 {
                value = value * 10 + Int(b[i] - 0x30)
                digits += 1
                i += 1
            }
            return (value, digits)
        }
        func skipSpaces() { while i < n, b[i] == 0x20 { i += 1 } }
        // Date.
        let first = number(maxDigits: 4)
        guard first.digits > 0, i < n || first.digits == 4 else { return nil }
        if first.digits == 4, i < n, b[i] == 0x2D {
            year = first.value
            i += 1
            let m = number(maxDigits: 2)
            guard m.digits > 0, i < n, b[i] == 0x2D else { return nil }
            i += 1
            let d = number(maxDigits: 2)
            guard d.digits > 0 else { return nil }
            month = m.value
            day = d.value
        } else if first.digits <= 2, i < n, b[i] == 0x2F {
            month = first.value
            i += 1
            let d = number(maxDigits: 2)
            guard d.digits > 0, i < n, b[i] == 0x2F else { return nil }
            i += 1
            let y = number(maxDigits: 4)
            guard y.digits == 4 else { return nil }
            day = d.value
            year = y.value
        } else {
            return nil
        }
        if i == n { return }
        guard b[i] == 0x54 || b[i] == 0x20 else { return nil }
        i += 1
        skipSpaces()
        // Clock.
        let h = number(maxDigits: 2)
        guard h.digits > 0, i < n, b[i] == 0x3A else { return nil }
        i += 1
        let m = number(maxDigits: 2)
        guard m.digits == 2 else { return nil }
        hour = h.value
        minute = m.value
        if i < n, b[i] == 0x3A {
            i += 1
            let s = number(maxDigits: 2)
            guard s.digits == 2 else { return nil }
            second = s.value
            if i < n, b[i] == 0x2E {
                i += 1
                guard number(maxDigits: 9).digits > 0 else { return nil }
            }
        }
        skipSpaces()
        // 12-hour clock.
        if i + 1 < n, (b[i] | 0x20) == 0x61 || (b[i] | 0x20) == 0x70, (b[i + 1] | 0x20) == 0x6D {
            guard (1...12).contains(hour) else { return nil }
            let pm = (b[i] | 0x20) == 0x70
            hour = hour % 12 + (pm ? 12 : 0)
            i += 2
            skipSpaces()
        }
        // Offset.
        if i < n, b[i] == 0x5A {
            offset = 0
            i += 1
        } else if i < n, b[i] == 0x2B || b[i] == 0x2D {
            let sign = b[i] == 0x2D ? -1 : 1
            i += 1
            let oh = number(maxDigits: 2)
            guard oh.digits == 2 else { return nil }
            if i < n, b[i] == 0x3A { i += 1 }
            let om = number(maxDigits: 2)
            guard om.digits == 2 else { return nil }
            offset = sign * (oh.value * 3600 + om.value * 60)
        }
        guard i == n, (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else {
            return nil
        }
    }
}
