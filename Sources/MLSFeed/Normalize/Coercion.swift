import Foundation

/// Pure functions that turn the raw text real MLS feeds send into typed values.
///
/// Every function takes already-trimmed, non-empty text and returns a value, `nil` for "unknown" (a `0`
/// coordinate), or throws a `CoercionFailure` naming the rule.
public enum Coercion {
    /// `3`, ` 2 `, `1,850`, `2.0` → integer; `2.5` or `three` fail.
    public static func integer(_ raw: String) throws -> Int64 {
        let digits = raw.filter { $0 != "," }
        if let value = Int64(digits) { return value }
        if isPlainNumber(digits[...]), let decimal = Decimal(string: digits, locale: posix), decimal.isFinite {
            var rounded = decimal
            var copy = decimal
            NSDecimalRound(&rounded, &copy, 0, .plain)
            if rounded == decimal, let value = Int64(exactly: NSDecimalNumber(decimal: decimal).doubleValue) {
                return value
            }
        }
        throw CoercionFailure("not an integer")
    }

    /// `1,850`, `1850.50`, `-3` → canonical decimal text.
    public static func decimal(_ raw: String) throws -> String {
        guard let canonical = canonicalDecimal(raw.filter { $0 != "," }) else {
            throw CoercionFailure("not a number")
        }
        return canonical
    }

    /// `$1,250,000`, `1250000.00`, `1.25M`, `549K`, `$549,000` → canonical decimal text; `call agent` fails.
    public static func money(_ raw: String) throws -> String {
        var text = Substring(raw)
        if text.hasPrefix("$") { text = text.dropFirst() }
        text = Substring(text.filter { $0 != "," && $0 != " " })
        var multiplier: Decimal = 1
        if let last = text.last {
            switch last {
            case "M", "m": multiplier = 1_000_000; text = text.dropLast()
            case "K", "k": multiplier = 1_000; text = text.dropLast()
            default: break
            }
        }
        guard !text.hasPrefix("-"), isPlainNumber(text), let value = Decimal(string: String(text), locale: posix) else {
            throw CoercionFailure("not a price")
        }
        guard let canonical = canonicalDecimal(value * multiplier) else { throw CoercionFailure("not a price") }
        return canonical
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
        let text = Substring(raw)
        guard let separator = text.firstIndex(where: { $0 == "T" || $0 == " " }) else {
            // A bare date is midnight in the source's zone.
            guard let day = dateParts(text) else { throw CoercionFailure("not a timestamp") }
            return try utc(day.year, day.month, day.day, 0, 0, 0, offset: nil, zone: zone)
        }
        guard let day = dateParts(text[..<separator]) else { throw CoercionFailure("not a timestamp") }
        var rest = text[text.index(after: separator)...].trimmingCharacters(in: .whitespaces)[...]
        var offset: Int?
        if rest.hasSuffix("Z") {
            offset = 0
            rest = rest.dropLast()
        } else if let sign = rest.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let zoneText = rest[rest.index(after: sign)...].filter { $0 != ":" }
            guard zoneText.count == 4, let hhmm = Int(zoneText) else { throw CoercionFailure("not a timestamp") }
            offset = (hhmm / 100 * 3600 + hhmm % 100 * 60) * (rest[sign] == "-" ? -1 : 1)
            rest = rest[..<sign]
        }
        var hourShift = 0
        let upper = rest.uppercased()
        if upper.hasSuffix("AM") || upper.hasSuffix("PM") {
            hourShift = upper.hasSuffix("PM") ? 12 : 0
            rest = rest.dropLast(2).trimmingCharacters(in: .whitespaces)[...]
            guard let first = rest.split(separator: ":").first, let h = Int(first), (1...12).contains(h) else {
                throw CoercionFailure("not a timestamp")
            }
            if h == 12 { hourShift -= 12 }
        }
        let clock = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(clock.count), let h = Int(clock[0]), let m = Int(clock[1]) else {
            throw CoercionFailure("not a timestamp")
        }
        var s = 0
        if clock.count == 3 {
            // Fractional seconds are dropped: feeds stamp to the second.
            guard let whole = Int(clock[2].prefix { $0 != "." }) else { throw CoercionFailure("not a timestamp") }
            s = whole
        }
        let hour = h + hourShift
        guard (0...23).contains(hour), (0...59).contains(m), (0...60).contains(s),
              isValidDate(day.year, day.month, day.day) else {
            throw CoercionFailure("not a timestamp")
        }
        return try utc(day.year, day.month, day.day, hour, m, min(s, 59), offset: offset, zone: zone)
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
        var digits = raw.unicodeScalars.filter { $0.properties.numericType != nil && $0.isASCII }.map(Character.init)
        if digits.count == 11, digits.first == "1" { digits.removeFirst() }
        let letters = raw.contains { $0.isLetter && !"extEXT".contains($0) }
        guard digits.count == 10, !letters else { throw CoercionFailure("not a phone number") }
        let d = String(digits)
        return "(\(d.prefix(3))) \(d.dropFirst(3).prefix(3))-\(d.suffix(4))"
    }

    /// An e-mail address, lower-cased and checked for `local@domain.tld` shape.
    public static func email(_ raw: String) throws -> String {
        let lower = raw.lowercased()
        let parts = lower.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
              !parts[1].hasSuffix("."), !lower.contains(where: { $0.isWhitespace || $0 == "," || $0 == ";" }) else {
            throw CoercionFailure("not an email address")
        }
        return lower
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

    private static let posix = Locale(identifier: "en_US_POSIX")

    /// Digits with at most one `.` and an optional leading `-`: what `Decimal(string:)` would otherwise read
    /// a prefix of (it takes `3 beds` as 3).
    static func isPlainNumber(_ text: Substring) -> Bool {
        var body = text
        if body.hasPrefix("-") { body = body.dropFirst() }
        var digits = 0
        var dots = 0
        for c in body.utf8 {
            if c >= 0x30 && c <= 0x39 { digits += 1 } else if c == 0x2E { dots += 1 } else { return false }
        }
        return digits > 0 && dots <= 1
    }

    private static func canonicalDecimal(_ text: String) -> String? {
        guard isPlainNumber(text[...]), let value = Decimal(string: text, locale: posix) else { return nil }
        return canonicalDecimal(value)
    }

    private static func canonicalDecimal(_ value: Decimal) -> String? {
        guard value.isFinite else { return nil }
        var rounded = value
        var copy = value
        NSDecimalRound(&rounded, &copy, 2, .plain)
        return NSDecimalNumber(decimal: rounded).description(withLocale: posix)
    }

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
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(y)-\(two(m))-\(two(d))"
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    private static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int, offset: Int?,
                            zone: TimeZone?) throws -> String {
        let local = daysFromCivil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + s
        let seconds: Int
        if let offset {
            seconds = local - offset
        } else {
            guard let zone else { throw CoercionFailure("naive timestamp but the source has no time_zone") }
            // Two passes find the offset in force at that wall-clock time (DST edges resolve to the later offset).
            let guess = local - zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(local)))
            seconds = local - zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(guess)))
        }
        return formatTimestamp(seconds)
    }

    /// `yyyy-MM-ddTHH:mm:ssZ` for seconds since the epoch.
    static func formatTimestamp(_ seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secs = seconds - days * 86_400
        // civil_from_days
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(formatDate(y, m, d))T\(two(secs / 3600)):\(two(secs % 3600 / 60)):\(two(secs % 60))Z"
    }
}
