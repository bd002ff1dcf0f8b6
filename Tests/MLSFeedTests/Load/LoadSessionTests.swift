import Foundation
@testable import MLSFeed
import Postgres
import PostgresTestSupport
import Testing

private typealias F = LoadFixtures

@Suite(.ownThread) struct LoadSessionTests {
    @Test func firstRunInsertsListingsAgentsAndLedger() throws {
        let db = try TestDatabase.migrated()
        let result = try F.load(db, [F.listing("A", ordinal: 0), F.listing("B", ordinal: 1), F.agent("AG1")])
        #expect(result.inserted == 2)
        #expect(result.agentsInserted == 1)
        #expect(try F.query(db, "SELECT listing_id, list_price::text, first_seen_run = last_changed_run FROM listings "
            + "ORDER BY 1") == [["A", "500000.00", "t"], ["B", "500000.00", "t"]])
        #expect(try F.query(db, """
            SELECT status, mode, read, inserted, inputs::text, timings::text, finished_at IS NOT NULL
            FROM ingest_runs WHERE id = $1
            """, [String(result.runID)]) == [[
                "succeeded", "incremental", "3", "2",
                "[{\"etag\": null, \"bytes\": 100, \"sha256\": \"ab\", \"location\": \"feed.xml\", "
                    + "\"last_modified\": null}]",
                "{\"load\": 0.5}", "t",
            ]])
    }

    @Test func sameBatchTwiceWritesNothing() throws {
        let db = try TestDatabase.migrated()
        let batch = [F.listing("A"), F.listing("B", price: "1"), F.listing("C"), F.agent("AG1")]
        try F.load(db, batch)
        let before = try F.query(db, "SELECT listing_id, xmin::text FROM listings ORDER BY 1")
        let agentBefore = try F.query(db, "SELECT xmin::text FROM agents")
        let second = try F.load(db, batch)
        #expect(second.inserted == 0)
        #expect(second.updated == 0)
        #expect(second.unchanged == 3)
        #expect(second.agentsUnchanged == 1)
        #expect(try F.query(db, "SELECT listing_id, xmin::text FROM listings ORDER BY 1") == before)
        #expect(try F.query(db, "SELECT xmin::text FROM agents") == agentBefore)
    }

    @Test func olderDumpAfterNewerIsStaleAndWithdrawsNothing() throws {
        let db = try TestDatabase.migrated()
        let today = "2026-11-20T08:00:00Z", lastWeek = "2026-11-13T08:00:00Z"
        try F.load(db, [F.listing("A", price: "600000", modified: today), F.listing("B", modified: today),
                        F.listing("C", modified: today)], mode: .full)
        let before = try F.snapshot(db)
        let old = try F.load(db, [F.listing("A", price: "550000", modified: lastWeek),
                                  F.listing("B", status: "Pending", modified: lastWeek)], mode: .full)
        #expect(old.stale == 2)
        #expect(old.updated == 0)
        #expect(old.withdrawn == 0)
        #expect(try F.snapshot(db) == before)
    }

    @Test func recordWithoutTimestampNeverOverwritesATimestampedRow() throws {
        let db = try TestDatabase.migrated()
        try F.load(db, [F.listing("A")])
        var undated = F.listing("A", price: "1")
        undated.values["modification_timestamp"] = nil
        let result = try F.load(db, [undated])
        #expect(result.stale == 1)
        #expect(result.unchanged == 0)
        #expect(try F.query(db, "SELECT list_price::text FROM listings") == [["500000.00"]])
    }

    @Test func undatedRowsChangeOnlyWithADumpNotOlderThanTheSourcesNewest() throws {
        let db = try TestDatabase.migrated()
        func undated(_ id: String, _ price: String) -> NormalizedRecord {
            var record = F.listing(id, price: price)
            record.values["modification_timestamp"] = nil
            return record
        }
        try F.load(db, [undated("A", "1"), undated("B", "1")], asOf: "2026-11-10T00:00:00Z")
        let older = try F.load(db, [undated("A", "2")], asOf: "2026-11-09T00:00:00Z")
        #expect(older.stale == 1 && older.updated == 0)
        let newer = try F.load(db, [undated("A", "3")], asOf: "2026-11-11T00:00:00Z")
        #expect(newer.updated == 1)
        #expect(try F.query(db, "SELECT list_price::text FROM listings WHERE listing_id = 'A'") == [["3.00"]])
        #expect(try F.query(db, "SELECT as_of::text FROM ingest_runs ORDER BY id") == [
            ["2026-11-10 00:00:00+00"], ["2026-11-09 00:00:00+00"], ["2026-11-11 00:00:00+00"]])
    }

    @Test func aWithdrawalRemembersTheDumpsAsOfAndOnlyNewerEvidenceReturnsIt() throws {
        let db = try TestDatabase.migrated()
        try F.load(db, [F.listing("A"), F.listing("B"), F.listing("C")], mode: .full, asOf: "2026-11-10T00:00:00Z")
        let gone = try F.load(db, [F.listing("A"), F.listing("B")], mode: .full, asOf: "2026-11-12T00:00:00Z")
        #expect(gone.withdrawn == 1)
        #expect(try F.query(db, "SELECT off_market_as_of::text FROM listings WHERE listing_id = 'C'")
            == [["2026-11-12 00:00:00+00"]])
        // Older evidence: the dump is older and so is the record.
        let old = try F.load(db, [F.listing("A"), F.listing("B"), F.listing("C")], mode: .full,
                             asOf: "2026-11-11T00:00:00Z")
        #expect(old.stale == 1 && old.updated == 0 && !old.reconciled)
        // A record modified after the withdrawal brings it back, whatever the dump's age.
        let fresh = try F.load(db, [F.listing("C", modified: "2026-11-13T00:00:00Z")], asOf: "2026-11-11T00:00:00Z")
        #expect(fresh.updated == 1)
        #expect(try F.query(db, "SELECT off_market_at IS NULL, off_market_as_of FROM listings WHERE listing_id = 'C'")
            == [["t", nil]])
    }

    @Test func priceAndStatusChangesWriteHistory() throws {
        let db = try TestDatabase.migrated()
        try F.load(db, [F.listing("A"), F.listing("B"), F.listing("C")])
        let result = try F.load(db, [
            F.listing("A", price: "480000", modified: "2026-11-02T10:00:00Z"),
            F.listing("B", status: "Pending", modified: "2026-11-02T10:00:00Z"),
            F.listing("C", modified: "2026-11-02T10:00:00Z", city: "La Jolla"),
        ])
        #expect(result.updated == 3)
        #expect(try F.query(db, """
            SELECT listing_id, change, old_price::text, new_price::text, old_status, new_status, run_id = $1
            FROM listing_history ORDER BY listing_id
            """, [String(result.runID)]) == [
                ["A", "price", "500000.00", "480000.00", "Active", "Active", "t"],
                ["B", "status", "500000.00", "500000.00", "Active", "Pending", "t"],
            ])
        #expect(try F.query(db, "SELECT city FROM listings WHERE listing_id = 'C'") == [["La Jolla"]])
    }

    @Test func fullDumpWithdrawsMissingListingAndRestoresItWhenItReappears() throws {
        let db = try TestDatabase.migrated()
        try F.load(db, [F.listing("A"), F.listing("B"), F.listing("C")], mode: .full)
        let second = try F.load(db, [F.listing("A", modified: "2026-11-02T10:00:00Z"), F.listing("B")], mode: .full)
        #expect(second.withdrawn == 1)
        #expect(second.updated == 1)
        #expect(second.unchanged == 1)
        #expect(try F.query(db, """
            SELECT standard_status, off_market_at IS NOT NULL FROM listings WHERE listing_id = 'C'
            """) == [["Withdrawn", "t"]])
        #expect(try F.query(db, "SELECT count(*) FROM listings") == [["3"]])

        let third = try F.load(db, [F.listing("A", modified: "2026-11-02T10:00:00Z"), F.listing("B"),
                                    F.listing("C")], mode: .full)
        #expect(third.withdrawn == 0)
        #expect(third.updated == 1)
        #expect(try F.query(db, "SELECT standard_status, off_market_at FROM listings WHERE listing_id = 'C'")
            == [["Active", nil]])
        #expect(try F.query(db, """
            SELECT change, old_status, new_status FROM listing_history WHERE listing_id = 'C' ORDER BY id
            """) == [["withdrawn", "Active", "Withdrawn"], ["returned", "Withdrawn", "Active"]])
    }

    @Test func incrementalModeWithdrawsNothing() throws {
        let db = try TestDatabase.migrated()
        try F.load(db, [F.listing("A"), F.listing("B")])
        let result = try F.load(db, [F.listing("A")])
        #expect(result.withdrawn == 0)
        #expect(try F.query(db, "SELECT count(*) FROM listings WHERE off_market_at IS NULL") == [["2"]])
    }

    @Test func guardStopsAHalfSizeDumpAndForceOverrides() throws {
        let db = try TestDatabase.migrated()
        try F.load(db, [F.listing("A"), F.listing("B"), F.listing("C"), F.listing("D")], mode: .full)
        let before = try F.snapshot(db)
        let error = try #require(throws: LoadError.self) { try F.load(db, [F.listing("A")], mode: .full) }
        #expect(error.message == "full dump holds 1 listings, fewer than 50% of the 4 active listings of source "
            + "sdmls: refusing to withdraw the rest (a truncated download?); rerun with --force to load it anyway")
        #expect(try F.snapshot(db) == before)
        #expect(try F.query(db, "SELECT status, error FROM ingest_runs ORDER BY id DESC LIMIT 1")
            == [["failed", error.message]])

        let forced = try F.load(db, [F.listing("A")], mode: .full, force: true)
        #expect(forced.withdrawn == 3)
    }

    @Test func rejectedListingIsNotWithdrawn() throws {
        let db = try TestDatabase.migrated()
        try F.load(db, [F.listing("A"), F.listing("B"), F.listing("C")], mode: .full)
        let result = try F.load(db, [F.listing("A"), F.listing("B")], rejects: [F.reject("C", ordinal: 2)],
                                mode: .full)
        #expect(result.withdrawn == 0)
        #expect(try F.query(db, "SELECT standard_status FROM listings WHERE listing_id = 'C'") == [["Active"]])
        #expect(try F.query(db, """
            SELECT entity, key, file, line, column_number, ordinal, reasons::text, raw::text FROM rejects
            WHERE run_id = $1
            """, [String(result.runID)]) == [[
                "listing", "C", "feed.xml", "7", "3", "2", "{\"list_price: not a price (\\\"call agent\\\")\"}",
                "[[\"ListingId\", \"C\"], [\"ListPrice\", \"call agent\"]]",
            ]])
    }

    @Test func duplicatesResolveNewestThenLaterOrdinal() throws {
        let db = try TestDatabase.migrated()
        let result = try F.load(db, [
            F.listing("A", price: "3", modified: "2026-11-03T00:00:00Z", ordinal: 0),
            F.listing("A", price: "1", modified: "2026-11-01T00:00:00Z", ordinal: 1),
            F.listing("B", price: "10", ordinal: 2),
            F.listing("B", price: "20", ordinal: 3),
            F.listing("C", ordinal: 4),
        ])
        #expect(result.duplicates == 2)
        #expect(result.inserted == 3)
        #expect(try F.query(db, "SELECT listing_id, list_price::text FROM listings ORDER BY 1")
            == [["A", "3.00"], ["B", "20.00"], ["C", "500000.00"]])
    }

    @Test func recordsWithoutAHashGetOneFromTheirContent() throws {
        let db = try TestDatabase.migrated()
        func unhashed(_ price: String) -> [NormalizedRecord] {
            [F.listing("A", price: price), F.listing("B")].map { record in
                var record = record
                record.contentHash = ""
                return record
            }
        }
        #expect(try F.load(db, unhashed("1")).inserted == 2)
        let again = try F.load(db, unhashed("1"))
        #expect(again.unchanged == 2)
        let changed = try F.load(db, unhashed("2"))
        #expect(changed.updated == 1)
        #expect(changed.unchanged == 1)
        #expect(try F.query(db, "SELECT length(content_hash) FROM listings ORDER BY listing_id") == [["32"], ["32"]])
    }

    @Test func agentsKeepFieldsAnEmbeddedRecordLacks() throws {
        let db = try TestDatabase.migrated()
        try F.load(db, [F.agent("AG1", email: "ann@example.com")])
        let result = try F.load(db, [F.agent("AG1", last: "Smith-Jones")])
        #expect(result.agentsUpdated == 1)
        #expect(try F.query(db, "SELECT first_name, last_name, email FROM agents")
            == [["Ann", "Smith-Jones", "ann@example.com"]])
    }

    /// `options` with `lockTimeout`, for `pipeline` (and `source`).
    private func options(pipeline: String = "nightly", source: String = F.source, lockTimeout: Double) -> LoadOptions {
        LoadOptions(source: source, pipeline: pipeline, mode: .incremental, lockTimeout: lockTimeout)
    }

    /// When `started_at` of run `id` was, as the busy message writes it.
    private func started(_ db: String, _ id: Int64) throws -> String {
        try F.query(db, """
            SELECT to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') FROM ingest_runs WHERE id = $1
            """, [String(id)])[0][0]!
    }

    /// One writer per source: a second session of the source is busy whichever pipeline names it (two pipelines of
    /// one source ran together and one died of a deadlock or a duplicate key). Another source loads meanwhile.
    @Test func aSecondSessionOfTheSourceIsBusyWhicheverPipelineNamesIt() throws {
        let db = try TestDatabase.migrated()
        let first = try LoadSession(conninfo: db, options: F.options())
        for pipeline in ["nightly", "hourly"] {
            let error = try #require(throws: LoadError.self) {
                try LoadSession(conninfo: db, options: options(pipeline: pipeline, lockTimeout: 0))
            }
            #expect(error == LoadError("source busy (run \(first.runID) of pipeline nightly, started at "
                                       + "\(try started(db, first.runID)))", kind: .busy))
        }
        let other = try LoadSession(conninfo: db, options: options(source: "crmls", lockTimeout: 0))
        other.fail("not needed")
        try first.write([F.listing("A")])
        _ = try first.commit(read: 1, rejected: 0, inputs: [], timings: [:], warnings: [])
        let third = try LoadSession(conninfo: db, options: options(pipeline: "hourly", lockTimeout: 0))
        third.fail("done")
    }

    /// A session that finds its source held waits for it (saying so once, naming the holder) and goes on when the
    /// holder ends; the holder's run is not taken for abandoned.
    @Test func aSessionWaitsForItsSourceAndGoesOnWhenTheHolderEnds() throws {
        let db = try TestDatabase.migrated()
        let first = try LoadSession(conninfo: db, options: F.options())
        let busy = "source busy (run \(first.runID) of pipeline nightly, started at \(try started(db, first.runID)))"
        let said = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var second: Result<LoadSession, any Error>?
        let opts = options(pipeline: "hourly", lockTimeout: 120)
        Thread {
            second = Result { try LoadSession(conninfo: db, options: opts, connection: ConnectionOptions(),
                                              log: { line in said.update { $0.append(line) } }) }
            done.signal()
        }.start()
        // Until the second session's backend waits for the advisory lock (polled, bounded).
        let watcher = try Connection(db)
        let deadline = Date().addingTimeInterval(60)
        while try watcher.execute("""
            SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'advisory'
            """).rows[0][0] == "0" {
            try #require(Date() < deadline, "the second session never waited for the lock")
            usleep(20_000)
        }
        try first.write([F.listing("A")])
        let result = try first.commit(read: 1, rejected: 0, inputs: [], timings: [:], warnings: [])
        done.wait()
        let session = try #require(try second?.get())
        #expect(said.value == [busy + ": waiting up to 120 s (load.lock_timeout)"])
        #expect(try F.query(db, "SELECT status FROM ingest_runs WHERE id = $1", [String(result.runID)])
            == [["succeeded"]])
        session.fail("done")
    }

    /// After `load.lock_timeout` the waiting session gives up, busy, naming the holder.
    @Test func aSessionGivesUpAfterTheLockTimeout() throws {
        let db = try TestDatabase.migrated()
        let first = try LoadSession(conninfo: db, options: F.options())
        let clock = ContinuousClock()
        let start = clock.now
        let error = try #require(throws: LoadError.self) {
            try LoadSession(conninfo: db, options: options(pipeline: "hourly", lockTimeout: 0.5))
        }
        #expect(clock.now - start >= .milliseconds(500))
        #expect(error == LoadError("source busy (run \(first.runID) of pipeline nightly, started at "
                                   + "\(try started(db, first.runID)))", kind: .busy))
        first.fail("done")
    }

    @Test func abandonedRunningRowIsMarkedInterrupted() throws {
        let db = try TestDatabase.migrated()
        let killer = try Connection(db)
        let crashed = try LoadSession(conninfo: db, options: F.options())
        // The crashed process's connections die: the server drops its lock and rolls its data back.
        try killer.execute("""
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid()
            """)
        try waitForBackendsToExit(killer)
        let next = try LoadSession(conninfo: db, options: F.options())
        #expect(try F.query(db, "SELECT status, error FROM ingest_runs WHERE id = $1", [String(crashed.runID)])
            == [["interrupted", "the process running it ended before the run finished"]])
        next.fail("done")
        _ = crashed
    }

    @Test func unchangedInputIsRecordedWithoutWriting() throws {
        let db = try TestDatabase.migrated()
        try F.load(db, [F.listing("A")])
        let session = try LoadSession(conninfo: db, options: F.options())
        let result = try session.commitUnchanged(
            inputs: [InputIdentity(location: "https://u:secret@feeds.example/dump.xml", etag: "\"v1\"")],
            timings: [:], warnings: ["not modified"])
        #expect(result.inserted == 0)
        #expect(try F.query(db, "SELECT status, inputs->0->>'location', inputs->0->>'etag', warnings::text "
            + "FROM ingest_runs WHERE id = $1", [String(result.runID)])
            == [["unchanged", "https://u:***@feeds.example/dump.xml", "\"v1\"", "{\"not modified\"}"]])
    }

    @Test func failRollsBackAndRecordsRedactedError() throws {
        let db = try TestDatabase.migrated()
        let session = try LoadSession(conninfo: db, options: F.options())
        try session.write([F.listing("A")])
        session.fail("could not reach postgresql://app:s3cret@db/mls", interrupted: false)
        #expect(try F.query(db, "SELECT count(*) FROM listings") == [["0"]])
        #expect(try F.query(db, "SELECT status, error FROM ingest_runs WHERE id = $1", [String(session.runID)])
            == [["failed", "could not reach postgresql://app:***@db/mls"]])
        #expect(throws: LoadError.self) { try session.write([F.listing("B")]) }
    }

    @Test func connectionKilledMidCopyLeavesLastGoodStateAndRerunEqualsCleanRun() throws {
        let db = try TestDatabase.migrated()
        let base = (0..<100).map { F.listing("L\($0)", ordinal: $0) }
        let next = (0..<5_000).map { F.listing("L\($0)", price: "\(600_000 + $0)", modified: "2026-11-05T00:00:00Z",
                                               city: String(repeating: "c", count: 100), ordinal: $0) }
        try F.load(db, base)
        let good = try F.snapshot(db)

        let session = try LoadSession(conninfo: db, options: F.options())
        let killer = try Connection(db)
        let error = try #require(throws: PostgresError.self) {
            for (index, batch) in stride(from: 0, to: next.count, by: 500).map({ next[$0..<min($0 + 500, next.count)] })
                .enumerated() {
                if index == 3 {
                    try killer.execute("""
                        SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                        WHERE application_name = $1 AND datname = current_database()
                        """, ["mlsfeed load run \(session.runID)"])
                }
                try session.write(Array(batch))
            }
            // A COPY's failure is thrown by a later write, or at the latest by the commit (COPYs are queued).
            _ = try session.commit(read: next.count, rejected: 0, inputs: [], timings: [:], warnings: [])
        }
        session.fail(error.description)
        #expect(try F.snapshot(db) == good)
        #expect(try F.query(db, "SELECT status FROM ingest_runs WHERE id = $1", [String(session.runID)])
            == [["failed"]])

        try F.load(db, next)
        let clean = try TestDatabase.migrated()
        try F.load(clean, base)
        try F.load(clean, next)
        #expect(try F.snapshot(db) == F.snapshot(clean))
        let history = "SELECT count(*) FROM listing_history"
        #expect(try F.query(db, history) == F.query(clean, history))
    }

    private func waitForBackendsToExit(_ connection: Connection) throws {
        for _ in 0..<100 {
            let left = try connection.execute("""
                SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
                """).rows[0][0]
            if left == "0" { return }
            usleep(50_000)
        }
    }
}
