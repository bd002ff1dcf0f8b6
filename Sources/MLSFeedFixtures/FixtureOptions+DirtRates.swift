import MLSFeed

extension FixtureOptions {
    /// The share of listings given each kind of dirt (`0.01` = 1%).
    package struct DirtRates: Sendable, Codable, Equatable {
        /// Listings written twice: the second copy newer, older, or with the same timestamp.
        package var duplicates: Double
        /// Records whose values count differs from the keys count (not applicable to plain `xml`).
        package var countMismatches: Double
        /// Records whose list price is not a number (`call agent`, `TBD`).
        package var badPrices: Double
        /// Records with an empty MLS number.
        package var emptyMLSNumbers: Double

        package init(duplicates: Double, countMismatches: Double, badPrices: Double, emptyMLSNumbers: Double) {
            self.duplicates = duplicates
            self.countMismatches = countMismatches
            self.badPrices = badPrices
            self.emptyMLSNumbers = emptyMLSNumbers
        }

        package static let `default` = DirtRates(duplicates: 0.01, countMismatches: 0.003, badPrices: 0.005,
                                                emptyMLSNumbers: 0.002)
        package static let none = DirtRates(duplicates: 0, countMismatches: 0, badPrices: 0, emptyMLSNumbers: 0)

        enum CodingKeys: String, CodingKey {
            case duplicates, countMismatches = "count_mismatches", badPrices = "bad_prices"
            case emptyMLSNumbers = "empty_mls_numbers"
        }
    }
}

/// The dirt rates of a fixture feed.
package typealias DirtRates = FixtureOptions.DirtRates
