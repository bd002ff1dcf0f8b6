import Foundation
import MLSFeed

/// Writes deterministic, realistic MLS feeds with dirt at set rates, and the truth about them.
package enum FixtureGenerator {
    /// A failure to read a base truth or to write the feed; `description` is the message shown to the user.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        package var message: String

        package init(_ message: String) {
            self.message = message
        }

        package var description: String { message }
    }

    /// The base dump is taken at 2026-11-28 02:00 San Diego time; each later night one day on.
    static let baseDumpLocal = FixtureClock.days(2026, 11, 28) * 86400 + 2 * 3600

    /// Writes the feed at `options.output` and its truth beside it; returns the truth.
    package static func generate(_ options: FixtureOptions) throws -> FixtureTruth {
        var market = options
        var night = 0
        var deltaSeed: UInt64?
        if let base = options.deltaOf {
            let truth = try readTruth(base)
            guard truth.night == 0 else {
                throw Failure("\(base): is itself a delta; a delta can only be made from a base dump")
            }
            market.format = truth.format
            market.shape = truth.shape
            market.listings = truth.listings
            market.seed = truth.seed
            market.dirt = truth.dirt
            market.source = truth.source
            market.pageSize = truth.pageSize
            market.jsonLines = truth.jsonLines ?? false
            night = 1
            deltaSeed = options.seed
        }
        guard market.listings > 0 else { throw Failure("--listings: expected a positive integer, got 0") }
        var plan = FixturePlan(seed: market.seed, listings: market.listings, rates: market.dirt, format: market.format)
        if let deltaSeed {
            plan.planDelta(seed: market.seed, deltaSeed: deltaSeed, changed: options.changed, gone: options.gone,
                           new: options.new)
        }
        var run = FixtureRun(market: market, plan: plan, night: night, deltaSeed: deltaSeed)
        try run.write()
        var truth = run.truth
        if let base = options.deltaOf {
            truth.delta = FixtureTruth.Delta(base: base, changed: run.changedNumbers, new: run.newNumbers,
                                             withdrawn: run.goneNumbers)
        }
        try writeTruth(truth, to: FixtureOptions.truthPath(for: options.output))
        return truth
    }

    /// Reads the truth of a feed, given the feed's path (`feed.xml` → `feed.truth.json`, falling back to
    /// `feed.xml.truth.json`) or the truth's own path.
    package static func readTruth(_ path: String) throws -> FixtureTruth {
        var truthPath = path.hasSuffix(".truth.json") ? path : FixtureOptions.truthPath(for: path)
        let files = FileManager.default
        if !files.fileExists(atPath: truthPath) && files.fileExists(atPath: path + ".truth.json") {
            truthPath = path + ".truth.json"
        }
        guard let data = FileManager.default.contents(atPath: truthPath) else {
            throw Failure("cannot read \(truthPath): no such file")
        }
        do {
            return try JSONDecoder().decode(FixtureTruth.self, from: data)
        } catch {
            throw Failure("\(truthPath): not a fixture truth file")
        }
    }

    /// The truth as JSON text: sorted keys, two-space indent, trailing newline.
    package static func json(_ truth: FixtureTruth) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(truth)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    static func writeTruth(_ truth: FixtureTruth, to path: String) throws {
        do {
            try json(truth).write(to: URL(fileURLWithPath: path))
        } catch {
            throw Failure("cannot write \(path): \(error.localizedDescription)")
        }
    }
}
