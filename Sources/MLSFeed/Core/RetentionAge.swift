/// An age such as `180d` or `12h`: a positive whole number and a unit (`s`, `m`, `h`, `d`, `w`). Ledger retention
/// (`mlsfeed prune`) and the replication settings (`overlap`, `key_sweep.every`) are written this way.
package struct RetentionAge: Sendable, Equatable, CustomStringConvertible {
    package let seconds: Int64
    /// As written (`180d`).
    package let description: String

    /// Reads `text`; nil when it is not a positive number followed by one of `s m h d w`.
    package init?(_ text: String) {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        guard let unit = text.last, let scale = units[unit] else { return nil }
        let digits = text.dropLast()
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
              let count = Int64(digits), count > 0 else { return nil }
        let (product, overflow) = count.multipliedReportingOverflow(by: scale)
        // More than 1,000 years is no age a timestamp can be older than.
        guard !overflow, product <= 1000 * 366 * 86_400 else { return nil }
        seconds = product
        description = text
    }

    /// `seconds` in the largest unit that divides it (`300` → `5m`, `604800` → `1w`, `0` → `0s`).
    package static func shown(_ seconds: Int) -> String {
        for (unit, scale) in [("w", 604_800), ("d", 86_400), ("h", 3600), ("m", 60)]
        where seconds > 0 && seconds % scale == 0 {
            return "\(seconds / scale)\(unit)"
        }
        return "\(seconds)s"
    }
}
