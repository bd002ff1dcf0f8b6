import MLSFeed

/// Civil dates and San Diego local time (America/Los_Angeles, US rules since 2007) without Foundation.
///
/// Times are naive local seconds since 1970-01-01T00:00:00 local; days are days since that date.
enum FixtureClock {
    /// `(year, month, day)` of a day number.
    static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) { CivilDate.civil(days) }

    /// The day number of a civil date.
    static func days(_ year: Int, _ month: Int, _ day: Int) -> Int { CivilDate.days(year, month, day) }

    /// 0 = Sunday.
    static func weekday(_ days: Int) -> Int {
        ((days % 7) + 11) % 7
    }

    /// The n-th Sunday (1-based) of a month.
    static func sunday(_ n: Int, of year: Int, _ month: Int) -> Int {
        let first = days(year, month, 1)
        return first + (7 - weekday(first)) % 7 + 7 * (n - 1)
    }

    /// Whether a local time falls in the hours a DST switch makes missing or ambiguous (01:00–02:59 that day).
    static func nearSwitch(_ local: Int) -> Bool {
        let day = floorDiv(local, 86400)
        let year = civil(day).year
        guard day == sunday(2, of: year, 3) || day == sunday(1, of: year, 11) else { return false }
        let hour = (local - day * 86400) / 3600
        return hour == 1 || hour == 2
    }

    /// Offset of local time from UTC in seconds (-7h in daylight time, -8h otherwise).
    static func offset(_ local: Int) -> Int {
        let day = floorDiv(local, 86400)
        let year = civil(day).year
        let start = sunday(2, of: year, 3) * 86400 + 2 * 3600
        let end = sunday(1, of: year, 11) * 86400 + 2 * 3600
        return local >= start && local < end ? -7 * 3600 : -8 * 3600
    }

    static func floorDiv(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    /// `yyyy-MM-dd`.
    static func isoDate(_ day: Int) -> String {
        let c = civil(day)
        return "\(c.year)-\(pad(c.month))-\(pad(c.day))"
    }

    /// `MM/dd/yyyy`.
    static func usDate(_ day: Int) -> String {
        let c = civil(day)
        return "\(pad(c.month))/\(pad(c.day))/\(c.year)"
    }

    /// `yyyy-MM-ddTHH:mm:ss` (naive local).
    static func isoLocal(_ local: Int) -> String {
        let day = floorDiv(local, 86400)
        let s = local - day * 86400
        return "\(isoDate(day))T\(pad(s / 3600)):\(pad(s / 60 % 60)):\(pad(s % 60))"
    }

    /// `MM/dd/yyyy hh:mm:ss AM` (naive local).
    static func usLocal(_ local: Int) -> String {
        let day = floorDiv(local, 86400)
        let s = local - day * 86400
        let hour = s / 3600
        let h12 = hour % 12 == 0 ? 12 : hour % 12
        return "\(usDate(day)) \(pad(h12)):\(pad(s / 60 % 60)):\(pad(s % 60)) \(hour < 12 ? "AM" : "PM")"
    }

    /// `yyyy-MM-ddTHH:mm:ssZ`: the UTC instant of a naive local time (the shape of `Value.timestamp`).
    static func utc(_ local: Int) -> String {
        isoLocal(local - offset(local)) + "Z"
    }

    /// `yyyy-MM-ddTHH:mm:ss.SSS[SSSS]Z`: the UTC instant of a naive local time plus milliseconds, written with
    /// `digits` (3 or more) fraction digits.
    static func utc(_ local: Int, millis: Int, digits: Int) -> String {
        isoLocal(local - offset(local)) + fraction(millis, digits: digits) + "Z"
    }

    /// `yyyy-MM-ddTHH:mm:ss-08:00`: a local time with its offset.
    static func withOffset(_ local: Int) -> String {
        let off = -offset(local) / 3600
        return isoLocal(local) + "-" + pad(off) + ":00"
    }

    /// `yyyy-MM-ddTHH:mm:ss.SSS-08:00`: a local time with milliseconds and its offset.
    static func withOffset(_ local: Int, millis: Int) -> String {
        let off = -offset(local) / 3600
        return isoLocal(local) + fraction(millis, digits: 3) + "-" + pad(off) + ":00"
    }

    /// `.SSS` followed by zeros up to `digits` digits.
    private static func fraction(_ millis: Int, digits: Int) -> String {
        let three = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "." + three + String(repeating: "0", count: max(digits - 3, 0))
    }

    static func pad(_ n: Int) -> String {
        n < 10 ? "0\(n)" : "\(n)"
    }
}
