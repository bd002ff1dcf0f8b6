import Testing
@testable import MLSFeed
@testable import MLSFeedFixtures

@Suite struct GenerateOptionsTests {
    @Test func parsesEveryOption() throws {
        let options = try FixtureOptions(arguments: [
            "--format", "rets-compact", "--shape", "per-record", "--listings", "1000000", "--seed", "42",
            "--output", "/tmp/feed.xml", "--dirt", "none", "--source=crmls",
        ])
        #expect(options.format == .retsCompact)
        #expect(options.shape == .perRecord)
        #expect(options.listings == 1_000_000)
        #expect(options.seed == 42)
        #expect(options.output == "/tmp/feed.xml")
        #expect(options.dirt == .none)
        #expect(options.source == "crmls")
        #expect(options.deltaOf == nil)
    }

    @Test func defaults() throws {
        let options = try FixtureOptions(arguments: ["--listings", "10", "--output", "f.xml"])
        #expect(options.format == .triples)
        #expect(options.shape == .header)
        #expect(options.seed == 1)
        #expect(options.dirt == .default)
        #expect(options.source == "sdmls")
    }

    @Test func parsesADelta() throws {
        let options = try FixtureOptions(arguments: [
            "--delta-of", "base.xml", "--changed", "2%", "--new=0.5%", "--gone", "0.01", "--output", "delta.xml",
        ])
        #expect(options.deltaOf == "base.xml")
        #expect(options.changed == 0.02)
        #expect(options.new == 0.005)
        #expect(options.gone == 0.01)
        #expect(options.listings == 0)
    }

    @Test func truthPathSitsBesideTheFeed() {
        #expect(FixtureOptions.truthPath(for: "pipelines/data/sample.xml") == "pipelines/data/sample.truth.json")
        #expect(FixtureOptions.truthPath(for: "/tmp/feed.dat") == "/tmp/feed.dat.truth.json")
    }

    @Test(arguments: [
        (["--listings", "5"], "missing required option '--output'"),
        (["--output", "f.xml"], "missing required option '--listings'"),
        (["--listings", "lots", "--output", "f.xml"], "--listings: expected a positive integer, got \"lots\""),
        (["--listings", "0", "--output", "f.xml"], "--listings: expected a positive integer, got \"0\""),
        (["--listings", "5", "--output", "f.xml", "--format", "csv"],
         "--format: expected triples, rets-compact, xml, reso-json or syndication, got \"csv\""),
        (["--listings", "5", "--output", "f.xml", "--shape", "flat"],
         "--shape: expected header or per-record, got \"flat\""),
        (["--listings", "5", "--output", "f.xml", "--seed", "-3"], "--seed: expected an unsigned integer, got \"-3\""),
        (["--listings", "5", "--output", "f.xml", "--dirt", "lots"], "--dirt: expected none or default, got \"lots\""),
        (["--listings", "5", "--output", "f.xml", "--colour", "red"], "unknown option '--colour'"),
        (["--listings", "5", "--output"], "option '--output' needs a value"),
        (["--listings", "5", "--listings", "6", "--output", "f.xml"], "option '--listings' given twice"),
        (["generate", "--listings", "5"], "unexpected argument 'generate'"),
        (["--listings", "5", "--output", "f.xml", "--changed", "2%"], "option '--changed' needs '--delta-of'"),
        (["--delta-of", "b.xml", "--output", "d.xml", "--listings", "5"],
         "option '--listings' cannot be used with '--delta-of': the base's truth sets it"),
        (["--delta-of", "b.xml", "--output", "d.xml", "--changed", "two"],
         "--changed: expected a share like 2% or 0.02, got \"two\""),
        (["--delta-of", "b.xml", "--output", "d.xml", "--gone", "150%"], "--gone: expected at most 100%, got \"150%\""),
        (["--delta-of", "b.xml", "--output", "d.xml", "--changed", "60%", "--gone", "50%"],
         "'--changed' and '--gone' together exceed 100%"),
    ])
    func rejectsBadArguments(arguments: [String], message: String) {
        #expect(throws: FixtureOptions.UsageError(message)) {
            _ = try FixtureOptions(arguments: arguments)
        }
        do {
            _ = try FixtureOptions(arguments: arguments)
        } catch {
            #expect("\(error)" == message)
        }
    }
}
