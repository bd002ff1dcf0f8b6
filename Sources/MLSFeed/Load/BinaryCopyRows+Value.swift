import Postgres

extension BinaryCopyRows {
    /// Appends `value` in the binary form of a column of `type`; false when it has none here (a value of another
    /// kind than the column's, or not in canonical form). The caller then copies the batch as text, so the server's
    /// input functions judge such a value exactly as they always did.
    mutating func append(_ value: Value?, as type: Column.SQLType) -> Bool {
        guard let value else {
            null()
            return true
        }
        switch (type, value) {
        case (.text, .text(let text)):
            self.text(text)
        case (.text, _):
            text(value.sqlText)
        case (.integer, .integer(let integer)):
            guard let narrow = Int32(exactly: integer) else { return false }
            int32(narrow)
        case (.numeric, .decimal(var text)):
            return text.withUTF8 { numeric($0) }
        case (.numeric, .integer(let integer)):
            var text = String(integer)
            return text.withUTF8 { numeric($0) }
        case (.double, .double(let double)):
            float64(double)
        case (.date, .date(var text)):
            guard let days = text.withUTF8(Self.daysSince2000) else { return false }
            date(daysSince2000: days)
        case (.timestamptz, .timestamp(var text)):
            guard let micros = text.withUTF8(Self.microsecondsSince2000) else { return false }
            timestamp(microsecondsSince2000: micros)
        default:
            return false
        }
        return true
    }

    /// 2000-01-01, PostgreSQL's epoch, as a day number since 1970-01-01.
    private static let epochDay = CivilDate.days(2000, 1, 1)

    /// A binary `timestamptz` read back (microseconds since 2000-01-01 UTC) as microseconds since 1970; the
    /// infinities (`Int64.max`, `Int64.min`) stay as they are.
    static func unixMicroseconds(_ since2000: Int64) -> Int64 {
        since2000 == .max || since2000 == .min ? since2000 : since2000 + Int64(epochDay) * 86_400_000_000
    }

    /// The day of canonical `yyyy-MM-dd` text since 2000-01-01; nil for other text or a day the month lacks.
    static func daysSince2000(_ text: UnsafeBufferPointer<UInt8>) -> Int32? {
        guard text.count == 10, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"),
              let year = digits(text, 0, 4), let month = digits(text, 5, 2), let day = digits(text, 8, 2),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        let days = CivilDate.days(year, month, day)
        let civil = CivilDate.civil(days)
        guard civil.month == month, civil.day == day else { return nil }
        return Int32(days - epochDay)
    }

    /// The instant of a canonical timestamp (`yyyy-MM-dd'T'HH:mm:ss`, an optional fraction of 1 to 6 digits, `Z`)
    /// in microseconds since 2000-01-01 00:00 UTC; nil for other text.
    static func microsecondsSince2000(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard text.count >= 20, text[10] == UInt8(ascii: "T"), text[13] == UInt8(ascii: ":"),
              text[16] == UInt8(ascii: ":"), text[text.count - 1] == UInt8(ascii: "Z"),
              let days = daysSince2000(UnsafeBufferPointer(rebasing: text[0..<10])),
              let hour = digits(text, 11, 2), let minute = digits(text, 14, 2), let second = digits(text, 17, 2),
              hour < 24, minute < 60, second < 60 else { return nil }
        var micros = 0
        let fraction = text.count - 20
        if fraction > 0 {
            guard text[19] == UInt8(ascii: "."), (2...7).contains(fraction),
                  let value = digits(text, 20, fraction - 1) else { return nil }
            micros = value
            for _ in fraction - 1..<6 { micros *= 10 }
        }
        let seconds = ((Int64(days) * 24 + Int64(hour)) * 60 + Int64(minute)) * 60 + Int64(second)
        return seconds * 1_000_000 + Int64(micros)
    }

    /// The decimal number of `count` ASCII digits at `start`; nil when one is not a digit.
    private static func digits(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for index in start..<start + count {
            let digit = text[index] &- 0x30
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        return value
    }
}
