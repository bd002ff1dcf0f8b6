/// Which countries' postal codes a `postal_code` field accepts, its `country` option.
package enum PostalCountry: String, Sendable, Hashable, CaseIterable {
    /// US ZIP / ZIP+4 and Canadian codes (the default).
    case usOrCanada = "US,CA"
    /// US ZIP and ZIP+4 only.
    case us = "US"
    /// Canadian codes only.
    case ca = "CA"
    /// US and Canadian codes normalized; any other country's code kept as written.
    case any
}
