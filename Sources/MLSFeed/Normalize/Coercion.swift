import Foundation

/// Pure functions that turn the raw text real MLS feeds send into typed values.
///
/// Every function takes already-trimmed, non-empty text and returns a value, `nil` for "unknown" (a `0`
/// coordinate), or throws a `CoercionFailure` naming the rule.
public enum Coercion {
    /// `3`, ` 2 `, `1,850`, `2.0` → integer; `2.5` or `three` fail.
    public static func integer(_ raw: String) throws -> Int64 {
        guard let hundredths = plainHundredths(raw), hundredths % 100 == 0 else {
            throw CoercionFailure("not an integer")
        }
        return hundredths / 100
    }

    /// `1,850`, `1850.50`, `-3` → canonical decimal text (two decimals at most, rounded).
    public static func decimal(_ raw: String) throws -> String {
        guard let hundredths = plainHundredths(raw) else { throw CoercionFailure("not a number") }
        return FastDecimal.format(hundredths)
    }

    /// `$1,250,000`, `1250000.00`, `1.25M`, `549K`, `$549,000` → canonical decimal text; `call agent` fails.
    public static func money(_ raw: String) throws -> String {
        var text = raw
        let value: Int64? = text.withUTF8 { all in
            var start = 0
            var end = all.count
            if start < end && all[start] == 0x24 { start += 1 }
            var exponent = 0
            if end > start {
                switch all[end - 1] {
                case 0x4D, 0x6D: exponent = 6; end -= 1
                case 0x4B, 0x6B: exponent = 3; end -= 1
                default: break
                }
            }
            var cleaned = [UInt8]()
            cleaned.reserveCapacity(end - start)
            for b in all[start..<end] where b != 0x2C && b != 0x20 { cleaned.append(b) }
            guard cleaned.first != 0x2D else { return nil }
            return cleaned.withUnsafeBufferPointer { FastDecimal.hundredths($0, multiplierExponent: exponent) }
        }
        guard let value else { throw CoercionFailure("not a price") }
        return FastDecimal.format(value)
    }

    /// Hundredths of a plain number, thousands separators (`,`) removed.
    private static func plainHundredths(_ raw: String) -> Int64? {
        var text = raw
        return text.withUTF8 { all in
            if !all.contains(0x2C) { return FastDecimal.hundredths(all) }
            let cleaned = all.filter { $0 != 0x2C }
            return cleaned.withUnsafeBufferPointer { FastDecimal.hundredths($0) }
        }
    }

    /// ISO `2026-03-04` or US `03/04/2026` / `3/4/2026` → `2026-03-04`, checked against the calendar.
    public static func date(_ raw: String) throws -> String {
        guard let parts = dateParts(Substring(raw)), isValidDate(parts.year, parts.month, parts.day) else {
            throw CoercionFailure("not a date")
        }
        return formatDate(parts.year, parts.month, parts.day)
    }

    /// `2026-11-28T01:59:03`, `2026-11-28 01:59`, `11/28/2026 01:59:03 AM`, with `Z`/`±hh:mm` or naive in `zone`.
    public static func timestamp(_ raw: String, zone: TimeZone?) throws -> String {
        var text = raw
        let parsed: TimestampParts? = text.withUTF8 { TimestampParts(bytes: $0) }
        guard let p = parsed, isValidDate(p.year, p.month, p.day) else { throw CoercionFailure("not a timestamp") }
        return try utc(p.year, p.month, p.day, p.hour, p.minute, min(p.second, 59), offset: p.offset, zone: zone)
    }

    /// `Y`/`N`, `Yes`/`No`, `1`/`0`, `true`/`false` (any case).
    public static func boolean(_ raw: String) throws -> Bool {
        switch raw.lowercased() {
        case "y", "yes", "1", "true", "t": return true
        case "n", "no", "0", "false", "f": return false
        default: throw CoercionFailure("not a yes/no value")
        }
    }

    /// A North American phone number normalized to `(619) 555-0134`; a leading country code 1 is dropped.
    public static func phone(_ raw: String) throws -> String {
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
    public static func email(_ raw: String) throws -> String {
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

    /// US ZIP or ZIP+4: `92103`, `92103-4411`, `921034411` → `92103-4411`.
    public static func postalCode(_ raw: String) throws -> String {
        let digits = raw.filter { $0 != "-" && $0 != " " }
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw CoercionFailure("not a ZIP code") }
        switch digits.count {
        case 5: return digits
        case 9: return "\(digits.prefix(5))-\(digits.suffix(4))"
        default: throw CoercionFailure("not a ZIP code")
        }
    }

    /// A coordinate within ±`limit`; exactly `0` means unknown and gives `nil`.
    public static func coordinate(_ raw: String, limit: Double) throws -> Double? {
        guard let value = Double(raw), value.isFinite else { throw CoercionFailure("not a coordinate") }
        if value == 0 { return nil }
        guard abs(value) <= limit else { throw CoercionFailure("out of range ±\(Int(limit))") }
        return value
    }

    // MARK: - Helpers

    private static func dateParts(_ text: Substring) -> (year: Int, month: Int, day: Int)? {
        if text.contains("-") {
            let p = text.split(separator: "-", omittingEmptySubsequences: false)
            guard p.count == 3, p[0].count == 4, let y = Int(p[0]), let m = Int(p[1]), let d = Int(p[2]) else {
                return nil
            }
            return (y, m, d)
        }
        let p = text.split(separator: "/", omittingEmptySubsequences: false)
        guard p.count == 3, p[2].count == 4, let m = Int(p[0]), let d = Int(p[1]), let y = Int(p[2]) else {
            return nil
        }
        return (y, m, d)
    }

    private static func isValidDate(_ y: Int, _ m: Int, _ d: Int) -> Bool {
        guard (1800...2200).contains(y), (1...12).contains(m), d >= 1 else { return false }
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return d <= days[m - 1]
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

    private static func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int, offset: Int?,
                            zone: TimeZone?) throws -> String {
        let local = CivilDate.days(y, mo, d) * 86_400 + h * 3600 + mi * 60 + s
        let seconds: Int
        if let offset {
            seconds = local - offset
        } else {
            guard let zone else { throw CoercionFailure("naive timestamp but the source has no time_zone") }
            seconds = ZoneOffsets.utc(local: local, zone: zone)
        }
        // The accepted years bound the instant too, so a canonical timestamp always coerces again.
        guard utcRange.contains(seconds) else { throw CoercionFailure("not a timestamp") }
        return formatTimestamp(seconds)
    }

    /// The instants of the years `isValidDate` accepts (1800 to 2200, UTC).
    private static let utcRange = CivilDate.days(1800, 1, 1) * 86_400...CivilDate.days(2201, 1, 1) * 86_400 - 1

    /// `yyyy-MM-ddTHH:mm:ssZ` for seconds since the epoch.
    static func formatTimestamp(_ seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secs = seconds - days * 86_400
        let (y, m, d) = CivilDate.civil(days)
        guard (1000...9999).contains(y) else {
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            return "\(formatDate(y, m, d))T\(two(secs / 3600)):\(two(secs % 3600 / 60)):\(two(secs % 60))Z"
        }
        return String(unsafeUninitializedCapacity: 20) { out in
            func digit(_ n: Int) -> UInt8 { UInt8(truncatingIfNeeded: 0x30 + n) }
            writeDate(y, m, d, into: out)
            let (h, mi, s) = (secs / 3600, secs % 3600 / 60, secs % 60)
            out[10] = UInt8(ascii: "T"); out[11] = digit(h / 10); out[12] = digit(h % 10)
            out[13] = UInt8(ascii: ":"); out[14] = digit(mi / 10); out[15] = digit(mi % 10)
            out[16] = UInt8(ascii: ":"); out[17] = digit(s / 10); out[18] = digit(s % 10)
            out[19] = UInt8(ascii: "Z")
            return 20
        }
    }
}
