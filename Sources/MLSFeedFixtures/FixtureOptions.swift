import MLSFeed

/// What `mlsfeed fixtures generate` writes: format, shape, size, seed, output path, dirt and delta settings.
package struct FixtureOptions: Sendable, Equatable {
    /// The feed format written.
    package enum Format: String, Sendable, Codable, CaseIterable {
        case triples, retsCompact = "rets-compact", xml
        /// RESO Web API records (Data Dictionary names) as OData JSON pages, one page document, or JSON Lines.
        case resoJSON = "reso-json"
        /// RETS Syndication 2012-03 (`Listings/Listing`, `commons:` address), indented.
        case syndication

        /// Whether records are delimiter-joined rows, which is what count-mismatch dirt needs.
        var hasDelimitedRows: Bool { self == .triples || self == .retsCompact }
    }

    /// The `triples` shape: labels/keys once before the records, or in every record.
    package enum Shape: String, Sendable, Codable {
        case header, perRecord = "per-record"
    }

    package var format: Format = .triples
    package var shape: Shape = .header
    /// Listings in the market (a delta takes it from its base's truth instead).
    package var listings: Int
    /// The market seed (for a delta: the seed of the night's changes).
    package var seed: UInt64 = 1
    /// Path of the feed; the truth is written beside it (see `truthPath(for:)`).
    package var output: String
    package var dirt: DirtRates = .default
    /// Path of the base feed (or its truth) to write the next night's dump of.
    package var deltaOf: String?
    package var changed = 0.02
    package var new = 0.005
    package var gone = 0.005
    /// The feed's `source` attribute.
    package var source = "sdmls"
    /// `reso-json` only: write OData pages of this many records as numbered files in the directory `output`.
    package var pageSize: Int?
    /// `reso-json` only: write JSON Lines (one record per line) instead of one OData page document.
    package var jsonLines = false

    package init(listings: Int, output: String, format: Format = .triples, shape: Shape = .header, seed: UInt64 = 1) {
        self.listings = listings
        self.output = output
        self.format = format
        self.shape = shape
        self.seed = seed
    }

    /// Where the truth of the feed at `path` goes: `feed.xml` → `feed.truth.json` (also `.json`, `.jsonl`),
    /// `feed.dat` → `feed.dat.truth.json`, a directory of pages `pages/` → `pages.truth.json`.
    package static func truthPath(for path: String) -> String {
        var base = path
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        for suffix in [".xml", ".jsonl", ".json"] where base.hasSuffix(suffix) && !base.hasSuffix(".truth.json") {
            return String(base.dropLast(suffix.count)) + ".truth.json"
        }
        return base + ".truth.json"
    }
}
