import Foundation

/// Pure functions that turn the raw text real MLS feeds send into typed values.
///
/// Every function takes already-trimmed, non-empty text and returns a value, `nil` for "unknown" (a `0`
/// coordinate), or throws a `CoercionFailure` naming the rule. The plain forms (ISO timestamps, integers, money
/// without separators) are read from the UTF-8 bytes with no allocation but the result string.
package enum Coercion {
    /// `3`, `1,850`, `12.0`, `12.000`, `-1` → integer; `12.5`, `12.001`, `1,85` or `three` fail.
    package static func integer(_ raw: String) throws -> Int64 {
        var text = raw
        let value: Int64? = text.withUTF8 { all in
            let negative = all.first == 0x2D
            var i = negative ? 1 : 0
            guard groupingIsValid(all, start: i) else { return nil }
            var value: Int64 = 0
            var digits = 0
            while i < all.count, all[i] != 0x2E {
                let b = all[i]
                i += 1
                if b == 0x2C { continue }
                guard b >= 0x30 && b <= 0x39 else { return nil }
                let (m, o1) = value.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(Int64(b - 0x30))
                if o1 || o2 { return nil }
                value = a
                digits += 1
            }
            // A fraction is allowed when it is all zeros.
            if i < all.count {
                i += 1
                while i < all.count {
                    guard all[i] == 0x30 else { return nil }
                    i += 1
                }
            }
            guard digits > 0 else { return nil }
            return negative ? -value : value
        }
        guard let value else { throw CoercionFailure("not an integer") }
        return value
    }

    /// `1,850`, `1850.50`, `3.000`, `-3` → canonical decimal text (two decimals at most, rounded half away from 0).
    package static func decimal(_ raw: String) throws -> String {
        var text = raw
        let hundredths: Int64? = text.withUTF8 { all in
            guard all.contains(0x2C) else { return FastDecimal.hundredths(all) }
            guard groupingIsValid(all, start: all.first == 0x2D ? 1 : 0) else { return nil }
            let cleaned = all.filter { $0 != 0x2C }
            return cleaned.withUnsafeBufferPointer { FastDecimal.hundredths($0) }
        }
        guard let hundredths else { throw CoercionFailure("not a number") }
        return FastDecimal.format(hundredths)
    }

    /// `$1,250,000`, `1250000.00`, `1.25M`, `549K`, `$ 549 000` → canonical decimal text; `call agent`, `-5` fail.
    package static func money(_ raw: String) throws -> String {
        var text = raw
        let value: Int64? = text.withUTF8 { all in
            var start = 0
            var end = all.count
            if start < end && all[start] == 0x24 { start += 1 }
            while start < end && all[start] == 0x20 { start += 1 }
            var exponent = 0
            if end > start {
                switch all[end - 1] {
                case 0x4D, 0x6D: exponent = 6; end -= 1
                case 0x4B, 0x6B: exponent = 3; end -= 1
                default: break
                }
                while end > start && all[end - 1] == 0x20 { end -= 1 }
            }
            let number = UnsafeBufferPointer(rebasing: all[start..<end])
            guard number.first != 0x2D else { return nil }
            guard number.contains(where: { $0 == 0x2C || $0 == 0x20 }) else {
                return FastDecimal.hundredths(number, multiplierExponent: exponent)
            }
            guard groupingIsValid(number, start: 0) else { return nil }
            let cleaned = number.filter { $0 != 0x2C && $0 != 0x20 }
            return cleaned.withUnsafeBufferPointer { FastDecimal.hundredths($0, multiplierExponent: exponent) }
        }
        guard let value else { throw CoercionFailure("not a price") }
        return FastDecimal.format(value)
    }

    /// Whether the thousands separators (`,` or a space) from `start` stand between groups of three digits of the
    /// integer part: `1,850`, `1 250 000.5`; not `1,85`, `12,5`, `,100` or `1.5,0`.
    private static func groupingIsValid(_ bytes: UnsafeBufferPointer<UInt8>, start: Int) -> Bool {
        var run = 0
        var groups = 0
        var i = start
        while i < bytes.count, bytes[i] != 0x2E {
            if bytes[i] == 0x2C || bytes[i] == 0x20 {
                if groups == 0 ? !(1...3).contains(run) : run != 3 { return false }
                groups += 1
                run = 0
            } else {
                run += 1
            }
            i += 1
        }
        if groups > 0 && run != 3 { return false }
        // No separator after the decimal point.
        while i < bytes.count {
            if bytes[i] == 0x2C || bytes[i] == 0x20 { return false }
            i += 1
        }
        return true
    }

    /// A date: ISO `2026-03-04`, a slashed date in `order` (`03/04/2026` is March 4 in `mdy`), or either followed by
    /// a time (`2014-07-24T00:00:00.000`, `2008-09-01 00:00:00`), checked against the calendar. The date is kept as
    /// written (an offset does not move it); `hadTime` says the time was not midnight and was dropped.
    package static func date(_ raw: String, order: DateOrder = .mdy) throws -> (date: String, hadTime: Bool) {
        var text = raw
        let parsed: TimestampParts? = text.withUTF8 { TimestampParts(bytes: $0, order: order) }
        guard let p = parsed, isValidDate(p.year, p.month, p.day) else { throw CoercionFailure("not a date") }
        return (formatDate(p.year, p.month, p.day), p.hasTimeOfDay)
    }

    /// A timestamp in any form `TimestampParts` reads (ISO with `T` or a space, slashed dates in `order` with a 12-
    /// or 24-hour clock, RFC 1123), with a zone or naive in `zone` → canonical UTC text (`Value.timestamp`).
    package static func timestamp(_ raw: String, zone: TimeZone?, order: DateOrder = .mdy) throws -> String {
        var text = raw
        let parsed: TimestampParts? = text.withUTF8 { TimestampParts(bytes: $0, order: order) }
        guard let p = parsed, isValidDate(p.year, p.month, p.day) else { throw CoercionFailure("not a timestamp") }
        // A leap second is read as the last whole second before it.
        let (second, fraction) = p.second == 60 ? (59, 0) : (p.second, p.microsecond)
        // Rounding the fraction may carry into the next second.
        let carry = fraction / 1_000_000
        let local = CivilDate.days(p.year, p.month, p.day) * 86_400 + p.hour * 3600 + p.minute * 60 + second + carry
        let seconds: Int
        if let offset = p.offset {
            seconds = local - offset
        } else {
            guard let zone else { throw CoercionFailure("naive timestamp but the source has no time_zone") }
            guard let utc = ZoneOffsets.utc(local: local, zone: zone) else {
                let reason = ZoneOffsets.skipReason(local: local, zone: zone)
                throw CoercionFailure("does not exist in \(zone.identifier) (\(reason))")
            }
            seconds = utc
        }
        // The accepted years bound the instant too, so a canonical timestamp always coerces again.
        guard utcRange.contains(seconds) else { throw CoercionFailure("not a timestamp") }
        return formatTimestamp(seconds, microseconds: fraction - carry * 1_000_000)
    }

    /// `Y`/`N`, `Yes`/`No`, `True`/`False`, `T`/`F`, `1`/`0`, in any case.
    package static func boolean(_ raw: String) throws -> Bool {
        var text = raw
        let value: Bool? = text.withUTF8 { bytes in
            guard bytes.count <= 5 else { return nil }
            var word: UInt64 = 0
            for b in bytes { word = word << 8 | UInt64(b >= 0x41 && b <= 0x5A ? b | 0x20 : b) }
            switch word {
            case pack("y"), pack("yes"), pack("1"), pack("true"), pack("t"): return true
            case pack("n"), pack("no"), pack("0"), pack("false"), pack("f"): return false
            default: return nil
            }
        }
        guard let value else { throw CoercionFailure("not a yes/no value") }
        return value
    }

    /// Up to 8 ASCII bytes packed big-end first, as `boolean` packs its input.
    private static func pack(_ word: StaticString) -> UInt64 {
        var packed: UInt64 = 0
        word.withUTF8Buffer { for b in $0 { packed = packed << 8 | UInt64(b) } }
        return packed
    }

    /// A North American phone number normalized to `(619) 555-0134`; a leading country code 1 is dropped.
    package static func phone(_ raw: String) throws -> String {
        var text = raw
        let digits: [UInt8]? = text.withUTF8 { bytes in
            var digits: [UInt8] = []
            digits.reserveCapacity(11)
            for b in bytes {
                if b >= 0x30 && b <= 0x39 {
                    digits.append(b)
                } else if (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A && !"extEXT".utf8.contains(b) {
                    return nil
                }
            }
            return digits
        }
        guard var d = digits else { throw CoercionFailure("not a phone number") }
        if d.count == 11, d.first == 0x31 { d.removeFirst() }
        guard d.count == 10 else { throw CoercionFailure("not a phone number") }
        var out: [UInt8] = [0x28]
        out += d[0..<3]
        out += [0x29, 0x20]
        out += d[3..<6]
        out.append(0x2D)
        out += d[6..<10]
        return String(decoding: out, as: UTF8.self)
    }

    /// An e-mail address, lower-cased and checked for `local@domain.tld` shape.
    package static func email(_ raw: String) throws -> String {
        var text = raw
        let lowered: [UInt8]? = text.withUTF8 { bytes in
            var out = [UInt8]()
            out.reserveCapacity(bytes.count)
            var at = -1
            for (i, b) in bytes.enumerated() {
                switch b {
                case 0x40:
                    if at >= 0 { return nil }
                    at = i
                    out.append(b)
                case 0x41...0x5A: out.append(b | 0x20)
                case 0x00...0x20, 0x2C, 0x3B, 0x7F: return nil
                default: out.append(b)
                }
            }
            guard at > 0 else { return nil }
            let domain = out[(at + 1)...]
            guard domain.contains(0x2E), domain.first != 0x2E, domain.last != 0x2E else { return nil }
            return out
        }
        guard let lowered else { throw CoercionFailure("not an email address") }
        let result = String(decoding: lowered, as: UTF8.self)
        // Non-ASCII letters are lower-cased too (rare in practice).
        return lowered.allSatisfy({ $0 < 0x80 }) ? result : result.lowercased()
    }

    /// A postal code of the countries `country` allows: US ZIP or ZIP+4 (`92103`, `92103-4411`, `921034411` →
    /// `92103-4411`), Canadian (`l3c5j1`, `L3C-5J1` → `L3C 5J1`), and with `.any` any other code of 2–12 letters,
    /// digits, spaces or dashes with a digit among them (`SW1A 1AA`), kept as written.
    package static func postalCode(_ raw: String, country: PostalCountry = .usOrCanada) throws -> String {
        var text = raw
        let code: String? = text.withUTF8 { bytes in
            if country != .ca, let zip = PostalCodes.zip(bytes) { return zip }
            if country != .us, let canadian = PostalCodes.canadian(bytes) { return canadian }
            if country == .any, PostalCodes.isPlausible(bytes) { return raw }
            return nil
        }
        guard let code else { throw CoercionFailure("not a postal code") }
        return code
    }

    /// A coordinate within ±`limit`; exactly `0` means unknown and gives `nil`.
    package static func coordinate(_ raw: String, limit: Double) throws -> Double? {
        guard let value = Double(raw), value.isFinite else { throw CoercionFailure("not a coordinate") }
        if value == 0 { return nil }
        guard abs(value) <= limit else { throw CoercionFailure("out of range ±\(Int(limit))") }
        return value
    }

    // MARK: - Helpers

    private static func isValidDate(_ y: Int, _ m: Int, _ d: Int) -> Bool {
        guard (1800...2200).contains(y), (1...12).contains(m), d >= 1 else { return false }
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        switch m {
        case 2: return d <= (leap ? 29 : 28)
        case 4, 6, 9, 11: return d <= 30
        default: return d <= 31
        }
    }

    private static func formatDate(_ y: Int, _ m: Int, _ d: Int) -> String {
        guard (1000...9999).contains(y) else {
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            return "\(y)-\(two(m))-\(two(d))"
        }
        return String(unsafeUninitializedCapacity: 10) { out in
            writeDate(y, m, d, into: out)
            return 10
        }
    }

    /// `yyyy-MM-dd` into the first 10 bytes of `out` (a four-digit year).
    private static func writeDate(_ y: Int, _ m: Int, _ d: Int, into out: UnsafeMutableBufferPointer<UInt8>) {
        func digit(_ n: Int) -> UInt8 { UInt8(truncatingIfNeeded: 0x30 + n) }
        out[0] = digit(y / 1000); out[1] = digit(y / 100 % 10); out[2] = digit(y / 10 % 10); out[3] = digit(y % 10)
        out[4] = UInt8(ascii: "-"); out[5] = digit(m / 10); out[6] = digit(m % 10)
        out[7] = UInt8(ascii: "-"); out[8] = digit(d / 10); out[9] = digit(d % 10)
    }

    /// The instants of the years `isValidDate` accepts (1800 to 2200, UTC).
    private static let utcRange = CivilDate.days(1800, 1, 1) * 86_400...CivilDate.days(2201, 1, 1) * 86_400 - 1

    /// The canonical text of an instant (`Value.timestamp`): `yyyy-MM-ddTHH:mm:ssZ` for whole seconds, exactly as
    /// before fractions were kept, and otherwise the microseconds with trailing zeros trimmed (`…:37.263Z`), the way
    /// PostgreSQL prints them.
    static func formatTimestamp(_ seconds: Int, microseconds: Int = 0) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secs = seconds - days * 86_400
        let (y, m, d) = CivilDate.civil(days)
        // The fraction's digits without trailing zeros.
        var fraction = microseconds
        var fractionDigits = fraction == 0 ? 0 : 6
        while fractionDigits > 0 && fraction % 10 == 0 {
            fraction /= 10
            fractionDigits -= 1
        }
        guard (1000...9999).contains(y) else {
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            var text = "\(formatDate(y, m, d))T\(two(secs / 3600)):\(two(secs % 3600 / 60)):\(two(secs % 60))"
            if fractionDigits > 0 {
                let digits = String(fraction)
                text += "." + String(repeating: "0", count: fractionDigits - digits.count) + digits
            }
            return text + "Z"
        }
        let length = fractionDigits == 0 ? 20 : 21 + fractionDigits
        return String(unsafeUninitializedCapacity: length) { out in
            func digit(_ n: Int) -> UInt8 { UInt8(truncatingIfNeeded: 0x30 + n) }
            writeDate(y, m, d, into: out)
            let (h, mi, s) = (secs / 3600, secs % 3600 / 60, secs % 60)
            out[10] = UInt8(ascii: "T"); out[11] = digit(h / 10); out[12] = digit(h % 10)
            out[13] = UInt8(ascii: ":"); out[14] = digit(mi / 10); out[15] = digit(mi % 10)
            out[16] = UInt8(ascii: ":"); out[17] = digit(s / 10); out[18] = digit(s % 10)
            if fractionDigits > 0 {
                out[19] = UInt8(ascii: ".")
                var rest = fraction
                for i in stride(from: 19 + fractionDigits, through: 20, by: -1) {
                    out[i] = digit(rest % 10)
                    rest /= 10
                }
            }
            out[length - 1] = UInt8(ascii: "Z")
            return length
        }
    }
}
