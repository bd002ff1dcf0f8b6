/// A calendar day (`yyyy-MM-dd`), as search criteria and rows carry list dates.
package struct SearchDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    package let year: Int
    package let month: Int
    package let day: Int

    /// The day `yyyy-MM-dd` names; nil when the text is not a real date of years 1-9999.
    package init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), year >= 1 else {
            return nil
        }
        let roundTrip = CivilDate.civil(CivilDate.days(year, month, day))
        guard roundTrip.year == year, roundTrip.month == month, roundTrip.day == day else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// `yyyy-MM-dd`.
    package var description: String {
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(width - s.count, 0)) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    package static func < (a: SearchDate, b: SearchDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }
}
