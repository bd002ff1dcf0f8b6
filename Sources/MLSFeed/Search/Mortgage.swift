import Foundation

/// The loan terms of `search.monthly_payment`: a down payment ratio, an annual rate and a term.
package struct Mortgage: Sendable, Equatable {
    /// 0-1 of the price paid up front.
    package var downPaymentRatio: Decimal
    /// Percent a year, 0-100.
    package var annualRatePercent: Decimal
    /// 1-100.
    package var years: Int

    package init(downPaymentRatio: Decimal, annualRatePercent: Decimal, years: Int) {
        self.downPaymentRatio = downPaymentRatio
        self.annualRatePercent = annualRatePercent
        self.years = years
    }

    /// A mistake in a mortgage spec, worded to follow the flag that carried it.
    package struct SpecError: Error, Equatable, CustomStringConvertible {
        package let message: String
        package var description: String { message }

        package init(message: String) {
            self.message = message
        }
    }

    /// Reads `down=20%,rate=6.5,years=30` (any order; `down` as a percentage or a ratio such as `0.2`, `rate` in
    /// percent with or without `%`); every key once, all three required.
    package init(spec: String) throws {
        var values: [String: String] = [:]
        for part in spec.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = pair[0].trimmingCharacters(in: .whitespaces)
            guard pair.count == 2, ["down", "rate", "years"].contains(key) else {
                throw SpecError(message: "expected down=PERCENT,rate=PERCENT,years=N, got \"\(spec)\"")
            }
            guard values[key] == nil else { throw SpecError(message: "\(key) is given twice") }
            values[key] = pair[1].trimmingCharacters(in: .whitespaces)
        }
        for key in ["down", "rate", "years"] where values[key] == nil {
            throw SpecError(message: "\(key) is missing (expected down=PERCENT,rate=PERCENT,years=N)")
        }
        let down = values["down"]!, rate = values["rate"]!, years = values["years"]!
        let ratio: Decimal
        if down.hasSuffix("%"), let percent = Mortgage.number(String(down.dropLast())) {
            ratio = percent / 100
        } else if let plain = Mortgage.number(down), plain <= 1 {
            ratio = plain
        } else {
            throw SpecError(message: "down must be a percentage such as 20% or a ratio such as 0.2, got \(down)")
        }
        guard ratio >= 0, ratio <= 1 else {
            throw SpecError(message: "down must be from 0% to 100%, got \(down)")
        }
        guard let percent = Mortgage.number(rate.hasSuffix("%") ? String(rate.dropLast()) : rate),
              percent >= 0, percent <= 100 else {
            throw SpecError(message: "rate must be a yearly percentage from 0 to 100, got \(rate)")
        }
        guard let term = Int(years), (1...100).contains(term) else {
            throw SpecError(message: "years must be a whole number from 1 to 100, got \(years)")
        }
        self.init(downPaymentRatio: ratio, annualRatePercent: percent, years: term)
    }

    /// A plain decimal number (`6.5`, `20`), nothing else.
    private static func number(_ text: String) -> Decimal? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              text.filter({ $0 == "." }).count <= 1, text != "." else { return nil }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }
}
