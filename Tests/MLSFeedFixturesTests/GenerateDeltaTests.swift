import Foundation
import Testing
@testable import MLSFeed
@testable import MLSFeedFixtures

@Suite struct GenerateDeltaTests {
    @Test func nextNightChangesAddsAndRemovesTheSetShares() throws {
        let dir = try generateTemporaryDirectory()
        let base = try FixtureGenerator.generate(FixtureOptions(listings: 4000, output: dir + "/base.xml", seed: 3))
        let options = try FixtureOptions(arguments: [
            "--delta-of", dir + "/base.xml", "--seed", "8", "--changed", "2%", "--new", "0.5%", "--gone", "0.5%",
            "--output", dir + "/delta.xml",
        ])
        let truth = try FixtureGenerator.generate(options)
        let delta = try #require(truth.delta)
        #expect(delta.changed.count == 80)
        #expect(delta.new.count == 20)
        #expect(delta.withdrawn.count == 20)
        #expect(truth.night == 1 && truth.seed == 3 && truth.listings == 4000 && truth.deltaSeed == 8)
        #expect(truth.generated == "2026-11-29T02:00:00-08:00")
        #expect(truth.records == base.records - 20 + 20)
        #expect(truth.rejected.count == base.rejected.count)
        #expect(truth.duplicates == base.duplicates)
        #expect(try FixtureGenerator.readTruth(dir + "/delta.xml") == truth)

        let before = try GeneratedFeedScan(path: dir + "/base.xml")
        let after = try GeneratedFeedScan(path: dir + "/delta.xml")
        func byMLS(_ scan: GeneratedFeedScan) -> [String: String] {
            var out: [String: String] = [:]
            for (row, raw) in zip(scan.rows, scan.rawRows) where !row[0].isEmpty { out[row[0]] = raw }
            return out
        }
        let old = byMLS(before), new = byMLS(after)
        for mls in delta.withdrawn {
            #expect(old[mls] != nil && new[mls] == nil)
        }
        for mls in delta.new {
            #expect(old[mls] == nil && new[mls] != nil)
        }
        let changed = Set(delta.changed)
        for mls in changed {
            let oldRow = try #require(old[mls]), newRow = try #require(new[mls])
            #expect(oldRow != newRow)
            let modified = GeneratedFeedScan.decode(newRow).components(separatedBy: "|")[7]
            #expect(GenerateFeedTests.sortable(modified) >= "2026-11-28 02:00:00")
            #expect(GenerateFeedTests.sortable(modified) < "2026-11-29 02:00:00")
        }
        let duplicated = Set(base.duplicated.map(\.mlsNumber))
        var unchanged = 0
        for (mls, row) in old where !changed.contains(mls) && !duplicated.contains(mls) {
            guard let newRow = new[mls] else { continue }
            #expect(newRow == row, "\(mls) changed without being listed")
            unchanged += 1
        }
        #expect(unchanged == new.count - 80 - 20 - duplicated.count)
    }

    @Test func aDeltaIsDeterministic() throws {
        let dir = try generateTemporaryDirectory()
        _ = try FixtureGenerator.generate(FixtureOptions(listings: 500, output: dir + "/base.xml", seed: 4))
        for name in ["d1.xml", "d2.xml"] {
            var options = FixtureOptions(listings: 0, output: dir + "/" + name, seed: 2)
            options.deltaOf = dir + "/base.xml"
            _ = try FixtureGenerator.generate(options)
        }
        #expect(FileManager.default.contents(atPath: dir + "/d1.xml")
                == FileManager.default.contents(atPath: dir + "/d2.xml"))
    }

    @Test func missingBaseTruthIsAFailure() throws {
        let dir = try generateTemporaryDirectory()
        var options = FixtureOptions(listings: 0, output: dir + "/d.xml")
        options.deltaOf = dir + "/none.xml"
        #expect(throws: FixtureGenerator.Failure("cannot read \(dir)/none.truth.json: no such file")) {
            _ = try FixtureGenerator.generate(options)
        }
    }

    @Test func aDeltaOfADeltaIsRefused() throws {
        let dir = try generateTemporaryDirectory()
        _ = try FixtureGenerator.generate(FixtureOptions(listings: 50, output: dir + "/base.xml"))
        var options = FixtureOptions(listings: 0, output: dir + "/d1.xml")
        options.deltaOf = dir + "/base.xml"
        _ = try FixtureGenerator.generate(options)
        options.deltaOf = dir + "/d1.xml"
        options.output = dir + "/d2.xml"
        #expect(throws: FixtureGenerator.Failure(
            "\(dir)/d1.xml: is itself a delta; a delta can only be made from a base dump")) {
            _ = try FixtureGenerator.generate(options)
        }
    }
}
