import Foundation
import Postgres
import PostgresTestSupport
import Testing
@testable import MLSFeed
@testable import MLSFeedFixtures

/// Whole runs into a real PostgreSQL (a throwaway cluster, fresh database per test).
@Suite(.ownThread) struct DatabaseRunTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../..").standardizedFileURL

    static func sample() throws -> PipelineConfig {
        try PipelineConfig.load(path: root.appendingPathComponent("pipelines/sample.yaml").path,
                                project: ProjectConfig(), environment: [:])
    }

    static func truth(_ path: String) throws -> FixtureTruth {
        try JSONDecoder().decode(FixtureTruth.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func run(_ config: PipelineConfig, database: String, input: String? = nil, force: Bool = false,
                    mode: LoadMode? = nil) throws -> RunSummary {
        var options = RunOptions()
        options.conninfo = database
        options.input = input
        options.force = force
        options.mode = mode
        return try PipelineRunner(config: config, options: options).run()
    }

    static func scalar(_ db: Connection, _ sql: String, _ params: [String?] = []) throws -> String? {
        try db.execute(sql, params).rows.first?.first ?? nil
    }

    @Test func sampleLoadsItsUniqueValidListingsWithTypedValues() throws {
        let database = try TestDatabase.migrated()
        let truth = try Self.truth(Self.root.appendingPathComponent("pipelines/data/sample.truth.json").path)
        let summary = try Self.run(try Self.sample(), database: database)
        #expect(summary.status == .succeeded, "\(summary.error ?? "")")
        #expect(summary.read == truth.records)
        #expect(summary.rejected == truth.rejects)
        #expect(summary.duplicates == truth.duplicates)
        #expect(summary.load.inserted == truth.uniqueValid)

        let db = try Connection(database)
        #expect(try Self.scalar(db, "SELECT count(*) FROM listings WHERE source = 'sdmls'") == "\(truth.uniqueValid)")
        #expect(try Self.scalar(db, "SELECT count(*) FROM rejects") == "\(truth.rejects)")
        let ledger = "SELECT read || '/' || rejected || '/' || duplicates || '/' || inserted FROM ingest_runs"
        #expect(try Self.scalar(db, ledger)
            == "\(truth.records)/\(truth.rejects)/\(truth.duplicates)/\(truth.uniqueValid)")
        #expect(try Self.scalar(db, "SELECT count(*) FROM agents") != "0")
        let row = try db.execute("""
            SELECT standard_status, property_type, list_price::text, modification_timestamp AT TIME ZONE 'UTC',
                   postal_code, city, bedrooms_total::text, extra->>'pool', list_agent_mls_id
            FROM listings WHERE listing_id = '260000000'
            """).rows.first
        #expect(row == ["Closed", "Residential", "1329000.00", "2026-10-19 05:00:55", "92069", "San Marcos", "6", "No",
                        row?[8]])
        // Every duplicated MLS number holds its winning version.
        for duplicate in truth.duplicated {
            let stored = try db.execute("""
                SELECT list_price::numeric::text, to_char(modification_timestamp AT TIME ZONE 'UTC',
                       'YYYY-MM-DD"T"HH24:MI:SS"Z"') FROM listings WHERE listing_id = $1
                """, [duplicate.mlsNumber]).rows.first
            #expect(stored?[1] == duplicate.winnerModifiedUTC, "\(duplicate.mlsNumber)")
            #expect(stored.flatMap { $0[0] }.flatMap { Decimal(string: $0) } == Decimal(
                string: duplicate.winnerListPriceValue), "\(duplicate.mlsNumber)")
        }
        // Rejected records keep their raw fields.
        let reject = try db.execute("SELECT raw::text FROM rejects WHERE reasons[1] LIKE 'list_price:%' LIMIT 1")
        #expect(reject.rows.first?.first??.contains(#"["list_price", "call agent"]"#) == true)
    }

    @Test func rerunIsUnchangedAndForcedRerunWritesNothing() throws {
        let database = try TestDatabase.migrated()
        let config = try Self.sample()
        _ = try Self.run(config, database: database)
        let db = try Connection(database)
        let before = try db.execute("SELECT listing_id, xmin::text FROM listings ORDER BY listing_id").rows

        let again = try Self.run(config, database: database)
        #expect(again.status == .unchanged)
        let forced = try Self.run(config, database: database, force: true)
        #expect(forced.status == .succeeded)
        #expect(forced.load.inserted == 0)
        #expect(forced.load.updated == 0)
        #expect(forced.load.unchanged == before.count)
        // Every listing read without warnings is recognised by its raw fingerprint and never normalized again.
        let clean = try #require(Int(Self.scalar(db, "SELECT count(*) FROM listings WHERE raw_hash IS NOT NULL") ?? ""))
        #expect(clean > before.count * 9 / 10)
        #expect(forced.load.recognized >= clean)
        #expect(try db.execute("SELECT listing_id, xmin::text FROM listings ORDER BY listing_id").rows == before)
        #expect(try Self.scalar(db, "SELECT string_agg(status, ',' ORDER BY id) FROM ingest_runs")
            == "succeeded,unchanged,succeeded")
    }

    @Test func processKilledMidRunLeavesTheLastGoodStateAndRerunFinishes() throws {
        let database = try TestDatabase.migrated()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let feed = dir.appendingPathComponent("big.xml").path
        let truth = try FixtureGenerator.generate(FixtureOptions(listings: 1_000, output: feed, seed: 7))

        // Killed without warning once the run has copied its first batch into the listings.
        let paused = try FaultTests.PausedRun(arguments: [
            "run", Self.root.appendingPathComponent("pipelines/sample.yaml").path, "--input", feed,
            "--database", database, "--quiet", "--no-progress",
        ], phase: .copy)
        try paused.waitForPause()
        _ = paused.signal(SIGKILL)
        #expect(paused.process.terminationReason == .uncaughtSignal)
        let db = try Connection(database)
        #expect(try Self.scalar(db, "SELECT count(*) FROM listings") == "0")

        let rerun = try Self.run(try Self.sample(), database: database, input: feed)
        #expect(rerun.status == .succeeded, "\(rerun.error ?? "")")
        #expect(rerun.load.inserted == truth.uniqueValid)
        #expect(try Self.scalar(db, "SELECT count(*) FROM listings") == "\(truth.uniqueValid)")
        #expect(try Self.scalar(db, "SELECT string_agg(status, ',' ORDER BY id) FROM ingest_runs")
            == "interrupted,succeeded")
    }

    @Test func sigintStopsTheRunCleanlyAsInterrupted() throws {
        let database = try TestDatabase.migrated()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("int-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let feed = dir.appendingPathComponent("big.xml").path
        _ = try FixtureGenerator.generate(FixtureOptions(listings: 1_000, output: feed, seed: 8))

        // Interrupted while it loads: paused after its first batch was copied, never finished before the signal.
        let paused = try FaultTests.PausedRun(arguments: [
            "run", Self.root.appendingPathComponent("pipelines/sample.yaml").path, "--input", feed,
            "--database", database, "--quiet", "--no-progress",
        ], phase: .copy)
        try paused.waitForPause()
        let ended = paused.signal(SIGINT)
        #expect(paused.process.terminationReason == .exit)
        #expect(ended.status == 130)
        #expect(ended.stderr.contains("error: the run was interrupted; the database keeps its last good state"))
        let db = try Connection(database)
        #expect(try Self.scalar(db, "SELECT status FROM ingest_runs") == "interrupted")
        #expect(try Self.scalar(db, "SELECT count(*) FROM listings") == "0")
    }

    @Test func directoryBackfillRunsEachFileAndARerunChangesNothing() throws {
        let database = try TestDatabase.migrated()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("backfill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let first = try FixtureGenerator.generate(FixtureOptions(listings: 200, output: dir.path + "/2026-11-27.xml",
                                                                 seed: 1))
        _ = try FixtureGenerator.generate(FixtureOptions(listings: 200, output: dir.path + "/2026-11-28.xml",
                                                         seed: 1))
        var options = RunOptions()
        options.conninfo = database
        options.input = dir.path
        options.mode = .incremental
        let runner = PipelineRunner(config: try Self.sample(), options: options)
        let summaries = try runner.runAll()
        // One run per file, in name order; the second file is the same market, so nothing new is inserted.
        #expect(summaries.map(\.status) == [.succeeded, .succeeded])
        #expect(summaries.map { $0.inputs.first.map { URL(fileURLWithPath: $0.location).lastPathComponent } }
            == ["2026-11-27.xml", "2026-11-28.xml"])
        #expect(summaries.map(\.load.inserted) == [first.uniqueValid, 0])
        // A rerun of the backfill loads the files again (each differs from the source's last run), writing nothing;
        // only an input identical to the source's last successful run is skipped.
        let db = try Connection(database)
        let before = try db.execute("SELECT listing_id, xmin::text FROM listings ORDER BY listing_id").rows
        let again = try PipelineRunner(config: try Self.sample(), options: options).runAll()
        #expect(again.map(\.status) == [.succeeded, .succeeded])
        #expect(again.map { $0.load.inserted + $0.load.updated + $0.load.withdrawn } == [0, 0])
        #expect(try db.execute("SELECT listing_id, xmin::text FROM listings ORDER BY listing_id").rows == before)
        options.input = dir.path + "/2026-11-28.xml"
        let last = try PipelineRunner(config: try Self.sample(), options: options).run()
        #expect(last.status == .unchanged)
        #expect(last.matchedRun == again.last?.runID)
    }

    /// Loads a generated base dump, then its next-night delta (full mode) into `database`; `forget` runs between
    /// the two (e.g. erasing the stored fingerprints).
    static func baseThenDelta(_ database: String, dir: String, forget: String? = nil) throws
        -> (base: RunSummary, delta: RunSummary, truth: FixtureTruth) {
        let config = try Self.sample()
        let base = try Self.run(config, database: database, input: dir + "/base.xml", mode: .full)
        if let forget { try Connection(database).execute(forget) }
        let delta = try Self.run(config, database: database, input: dir + "/delta.xml", mode: .full)
        return (base, delta, try Self.truth(dir + "/delta.truth.json"))
    }

    static func everything(_ database: String) throws -> [[String?]] {
        let db = try Connection(database)
        return try db.execute("""
            SELECT l::text FROM (
                SELECT source, listing_id, standard_status, property_type, list_price, original_list_price,
                       close_price, listing_contract_date, modification_timestamp, bedrooms_total, bathrooms_full,
                       bathrooms_half, living_area, lot_size_square_feet, year_built, street_number, street_name,
                       unit_number, city, state_or_province, postal_code, county_or_parish, mls_area, latitude,
                       longitude, public_remarks, private_remarks, directions, showing_instructions, owner_name,
                       list_agent_mls_id, list_office_mls_id, list_office_name, extra, content_hash, first_seen_run,
                       last_changed_run, off_market_at IS NOT NULL AS off_market
                FROM listings) l ORDER BY 1
            """).rows
            + db.execute("SELECT a::text FROM (SELECT * FROM agents) a ORDER BY 1").rows
            + db.execute("""
                SELECT h::text FROM (SELECT source, listing_id, run_id, modification_timestamp, change, old_price,
                                            new_price, old_status, new_status FROM listing_history) h ORDER BY 1
                """).rows
    }

    @Test func recognisingStoredListingsLoadsExactlyWhatNormalizingEverythingLoads() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("recognise-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        _ = try FixtureGenerator.generate(FixtureOptions(listings: 2000, output: dir + "/base.xml", seed: 5))
        _ = try FixtureGenerator.generate(try FixtureOptions(arguments: [
            "--delta-of", dir + "/base.xml", "--seed", "6", "--changed", "5%", "--new", "1%", "--gone", "1%",
            "--output", dir + "/delta.xml",
        ]))
        let recognising = try TestDatabase.migrated()
        let normalizing = try TestDatabase.migrated()
        let fast = try Self.baseThenDelta(recognising, dir: dir)
        let slow = try Self.baseThenDelta(normalizing, dir: dir, forget: "UPDATE listings SET raw_hash = NULL")
        let delta = try #require(fast.truth.delta)

        #expect(fast.delta.status == .succeeded && slow.delta.status == .succeeded)
        #expect(slow.delta.load.recognized == 0)
        #expect(fast.delta.load.recognized > fast.truth.uniqueValid * 8 / 10)
        // Straight after the first load (no reload between), the first load's fingerprints are all the next night
        // needs: every listing it carries unchanged is recognised, none normalized again.
        #expect(fast.delta.load.recognized == fast.delta.load.unchanged)
        for summary in [fast.delta, slow.delta] {
            #expect(summary.load.inserted == delta.new.count)
            #expect(summary.load.updated == delta.changed.count)
            #expect(summary.load.withdrawn == delta.withdrawn.count)
            #expect(summary.read == fast.truth.records)
            #expect(summary.rejected == fast.truth.rejects)
        }
        #expect(fast.delta.duplicates == slow.delta.duplicates)
        #expect(fast.delta.load.unchanged == slow.delta.load.unchanged)
        #expect(fast.delta.issues == slow.delta.issues)
        #expect(fast.delta.rejectReasons == slow.delta.rejectReasons)
        #expect(try Self.everything(recognising) == Self.everything(normalizing))
    }

    @Test func aChangedMappingRecognisesNothing() throws {
        let database = try TestDatabase.migrated()
        var config = try Self.sample()
        _ = try Self.run(config, database: database)
        config.mapping.fields[0].sources.append("listing_number")
        let forced = try Self.run(config, database: database, force: true)
        #expect(forced.status == .succeeded)
        #expect(forced.load.recognized == 0)
        #expect(forced.load.updated == 0)
        #expect(forced.load.inserted == 0)
        // Its fingerprints are those of the new mapping: the next run recognises its listings again.
        let again = try Self.run(config, database: database, force: true)
        #expect(again.load.recognized > 0)
    }
}
