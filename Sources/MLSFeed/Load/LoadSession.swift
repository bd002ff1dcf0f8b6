import Postgres

/// One load run into PostgreSQL: stages records with COPY, then merges them in one transaction.
///
/// The session holds two connections. The ledger connection (autocommit) applies migrations, holds the source's
/// advisory lock for the run's lifetime (one writer per source, whichever pipeline names it) and records the run
/// in `ingest_runs`, so a failed run is recorded too. The data connection does all data changes of the run in ONE
/// transaction — the staging COPYs, the rejects, the merge and the ledger row's final counts — so a run killed at
/// any point leaves the last good state and a rerun ends equal to one clean run.
///
/// Single owner: `@unchecked Sendable` so it can move to the load stage's worker thread, but it must be used
/// by one thread at a time.
package final class LoadSession: @unchecked Sendable {
    /// The run's id in `ingest_runs`.
    package let runID: Int64
    let options: LoadOptions
    var ledger: Connection?
    var data: Connection?
    var stagedListings = 0
    /// Hashes of the listing keys staged so far: while no key repeats and every record has a hash, the staging
    /// table is already the resolved incoming set and the merge skips the DISTINCT ON sort. 64-bit hashes keep
    /// this at ~16 MB for a million listings; a collision only costs the sort (it reads as a repeat).
    var stagedListingKeys = Set<Int>()
    var listingsNeedResolving = false
    var stagedAgents = 0
    /// Rows staged of the other tables (offices, media, open houses): a listing's own, or a resource feed's.
    var stagedRows: [Entity: Int] = [:]
    /// The kinds of a listing's rows (`Entity.carriedBit`) some record of the feed carries: only those are replaced
    /// for the listings the run writes (a feed without any media says nothing about its listings' media).
    var carried: UInt8 = 0
    /// Listings recognised as unchanged copies of stored ones and sent as keys only (into `seen_listings`).
    var skippedListings = 0
    /// Whether those keys are known to be distinct (see `RecognisedKeys`).
    var recognisedKeys = RecognisedKeys()
    /// Those keys, spooled until the merge knows which it needs in `seen_listings` (made at the first).
    private var recognisedSpool: RecognisedKeySpool?
    /// What of the spool is in `seen_listings`: nothing, the keys also staged, or all.
    private var seenSent = SeenSent.none
    /// The rows copied into `seen_listings` (the last copy's, after a `TRUNCATE`).
    private(set) var seenCopied = 0
    /// Set when the merge indexed `seen_listings` to join it by key (only when it had to).
    private(set) var seenIndexed = false
    /// Set when the withdrawal looked only at the stored listings no recognised copy named (`sendUnnamedListings`,
    /// or the keys of those a `WithdrawalSearch` found).
    var unnamedSent = false
    /// The newest modification timestamp of every listing written (staged, copied or recognised): the dump's
    /// as-of time when its format gives none.
    var newestTimestamp: String?
    /// Deletions sent into `deleted_listings`.
    var deletedListings = 0
    /// What the merges during the parse wrote (`MergeStatements.earlyMerge`), and the staged listings at the last
    /// (0: none was queued).
    let earlyMerges = EarlyMergeTotals()
    var stagedAtEarlyMerge = 0
    /// Whether merges were queued during the parse (once the COPY queue has settled, they all ran).
    var mergedEarly: Bool { stagedAtEarlyMerge > 0 }
    /// Decided at the first write: set when the run is the source's first load (see `FirstLoad`).
    var firstLoad: FirstLoad?
    var decidedFirstLoad = false
    /// The stored listings the pipeline recognises against (`recognize(against:)`).
    var recognition: BlockingFuture<StoredListings>?
    /// Reused for every row's `extra` (see `JSONText.ObjectWriter`).
    var extraWriter = JSONText.ObjectWriter(order: .storage)
    var jsonBuffer: [UInt8] = []
    /// The binary COPY being encoded (see `copy`); its buffer comes from a payload already sent.
    var binaryRows = BinaryCopyRows()
    /// The most bytes a binary COPY row of each table took so far: a new buffer is made large enough for its batch
    /// at once.
    var payloadBytesPerRow: [Entity: Int] = [:]
    /// Batches copied as text because a value had no binary form (see `copy`).
    package private(set) var textCopies = 0
    var finished = false
    /// The earlier run an `unchanged` run matched.
    var matchedRun: Int64?
    /// Whether the test hook after the first COPY (`TestPause.copy`) was passed.
    var pausedAfterCopy = false
    /// The connections' timeouts (also for the connections a run opens beside the session's).
    let connectionOptions: ConnectionOptions
    /// Where the session's connections go (`sideConnection` opens more).
    private let conninfo: String
    /// The most keys the withdrawal's search beside the merge hands back (`WithdrawalSearch`).
    var goneSearchLimit = WithdrawalSearch.defaultLimit
    /// Set when the withdrawal checked the keys a `WithdrawalSearch` found instead of looking for them itself.
    var goneSearched = false
    /// Cancels the running statement when the run is stopped.
    let canceller = StatementCanceller()
    /// Whether the run's cancellation came from a stop signal (see `init`).
    private let stoppedBySignal: (@Sendable () -> Bool)?
    private var stopRegistration: Cancellation.Registration?
    let lockWatch: LockWatch?
    let cancellation: Cancellation?

    /// Namespace of mlsfeed's advisory locks (`mlsf`); the source lock's second key hashes the source.
    static let lockNamespace = Int32(0x6d6c_7366)

    /// The run's temporary tables of keys: the listings recognised unchanged (sent as their key and ordinal) and
    /// the deletions a Web API sent; dropped when the run's transaction ends.
    static let createKeyTables = """
        CREATE TEMP TABLE seen_listings (listing_id text NOT NULL, ordinal bigint NOT NULL) ON COMMIT DROP;
        CREATE TEMP TABLE deleted_listings (listing_id text NOT NULL, modification_timestamp timestamptz,
                                            ordinal bigint NOT NULL) ON COMMIT DROP
        """

    /// Connects, applies migrations, takes the source's lock (waiting up to `options.lockTimeout` while another
    /// run of the source holds it, then throwing `source busy (...)`, naming that run), marks the source's
    /// abandoned `running` rows `interrupted`, records the new run as `running` and opens the run's transaction.
    package convenience init(conninfo: String, options: LoadOptions) throws {
        try self.init(conninfo: conninfo, options: options, connection: ConnectionOptions())
    }

    /// `init(conninfo:options:)` with the connections' timeouts, the run's `cancellation` (a stop cancels the
    /// running statement, unless the COMMIT was sent) and `log`, told what the run waits for when it waits for a
    /// lock.
    /// `stoppedBySignal` tells a stop signal from the other reasons a run's cancellation fires (a failed stage):
    /// only a signal records the run `interrupted`. Without it, any cancellation does.
    package init(conninfo: String, options: LoadOptions, connection: ConnectionOptions,
                 cancellation: Cancellation? = nil, log: (@Sendable (String) -> Void)? = nil,
                 stoppedBySignal: (@Sendable () -> Bool)? = nil) throws {
        self.options = options
        self.stoppedBySignal = stoppedBySignal
        self.connectionOptions = connection
        self.conninfo = conninfo
        let canceller = self.canceller
        let stop: () -> Bool = { cancellation?.isCancelled ?? false }
        stopRegistration = cancellation?.onCancel { canceller.stop() }
        lockWatch = log.map { LockWatch(conninfo: conninfo, options: connection, report: $0) }
        self.cancellation = cancellation
        let ledger = try Connection(conninfo, options: connection, shouldStop: stop)
        canceller.watch(ledger, refusingLater: false)
        lockWatch?.watch(ledger)
        try ledger.execute("SET TimeZone = 'UTC'")
        // A run writes, and a plan merges into temporary tables it rolls back: neither can on a hot standby.
        try ReadOnlyStandby.refuse(ledger)
        // A plan writes nothing: it needs the schema as it is.
        if options.plan { try Migrations.requireCurrent(ledger) } else { try Migrations.apply(ledger) }
        try LoadSession.lockSource(ledger, options, log: log, stopped: stop)
        if options.plan {
            runID = 0
        } else {
            runID = try LoadSession.recordStart(ledger, options)
        }
        self.ledger = ledger
        do {
            let data = try Connection(conninfo, options: connection, shouldStop: stop)
            canceller.watch(data)
            lockWatch?.watch(data)
            // No JIT: the merge statements are planned for a million rows but touch a few thousand; compiling them
            // took 0.2-0.3 s of a 1M delta (the update alone 0.17 s), and the first load runs no faster with it.
            try data.executeScript("""
                SET application_name = 'mlsfeed \(options.plan ? "plan" : "load run \(runID)")';
                SET TimeZone = 'UTC';
                SET work_mem = '256MB';
                SET temp_buffers = '256MB';
                SET jit = off;
                -- New `extra` values compressed with LZ4 where the server has it (migration 13): the staging tables'
                -- values go into `listings` compressed as they are, so they must be LZ4 already.
                SELECT set_config('default_toast_compression', 'lz4', false) FROM pg_settings
                WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals);
                BEGIN;
                \(StagingTables.create(.listing));
                \(StagingTables.create(.agent));
                \(options.stagedEntities.map { StagingTables.create($0) + ";" }.joined(separator: "\n"))
                \(LoadSession.createKeyTables);
                """)
            self.data = data
        } catch {
            fail(String(describing: error))
            throw error
        }
    }

    /// Marks the pipeline's abandoned `running` rows `interrupted` and records the new run as `running`; returns
    /// its id.
    private static func recordStart(_ ledger: Connection, _ options: LoadOptions) throws -> Int64 {
        // The source's lock is held: no other run of the source (of any pipeline) is alive.
        try ledger.execute("""
            UPDATE ingest_runs SET status = 'interrupted', finished_at = clock_timestamp(),
                error = coalesce(error, 'the process running it ended before the run finished')
            WHERE source = $1 AND status = 'running'
            """, [options.source])
        let inserted = try ledger.execute("""
            INSERT INTO ingest_runs (pipeline, source, mode, status) VALUES ($1, $2, $3, 'running') RETURNING id
            """, [options.pipeline, options.source, options.recordedMode])
        guard let id = inserted.rows.first?.first.flatMap({ $0.flatMap { Int64($0) } }) else {
            throw LoadError("could not record the run in ingest_runs")
        }
        return id
    }

    deinit {
        if !finished { fail("the load session was released without commit or fail", interrupted: true) }
        lockWatch?.stop()
    }

    /// The source's on-market listings by the raw fingerprint of the record that made them (see `RawHash`), read
    /// in the run's transaction with one `COPY ... TO STDOUT`. Listings read with warnings have none (they are
    /// only counted), and off-market ones are left out, so a listing that comes back is staged and restored as
    /// usual.
    package func storedListings() throws -> StoredListings {
        try LoadSession.storedListings(try activeData(), source: options.source, inTransaction: true)
    }

    /// `storedListings()` on any connection: one in a transaction block, or one of its own.
    package static func storedListings(_ data: Connection, source: String, inTransaction: Bool) throws
        -> StoredListings {
        // COPY takes no parameters: the source travels in a setting instead (local to the transaction, if any).
        try data.execute("SELECT set_config('mlsfeed.source', $1, $2)", [source, inTransaction ? "true" : "false"])
        // The planner's row estimate sizes the buffer (an exact count would scan the table once more).
        let estimate = Double(try data.execute("SELECT reltuples FROM pg_class WHERE oid = 'listings'::regclass")
            .rows.first?.first.flatMap { $0 } ?? "") ?? 0
        var builder = StoredListings.Builder(expectedCount: max(0, Int(estimate)))
        // Every on-market listing, so the set also knows how many there are; those without a fingerprint are only
        // counted. Binary, so the server formats no numbers: at 1M the COPY took 0.19 s instead of 0.41 s with the
        // timestamps as text epochs (a numeric product per row).
        try data.copyOutBinary("""
            COPY (SELECT raw_hash, modification_timestamp FROM listings
                  WHERE source = current_setting('mlsfeed.source') AND off_market_at IS NULL) TO STDOUT (FORMAT binary)
            """) { row in
            guard row.count == 2 else { throw LoadError("unreadable stored fingerprint row: \(row.count) fields") }
            guard let hash = row.int64(0) else {
                if row.isNull(0) { return builder.countWithoutFingerprint() }
                throw LoadError("unreadable stored fingerprint row: a fingerprint that is not 8 bytes")
            }
            builder.append(UInt64(bitPattern: hash), microseconds: row.int64(1).map(BinaryCopyRows.unixMicroseconds))
        }
        return builder.build()
    }

    /// Copies a batch of listings and agents (in any mix) into the run's staging tables. A listing recognised as
    /// an unchanged copy of a stored one (`isStored`) is sent as its key only (`seen_listings`). The COPYs are
    /// queued (`Connection.enqueueCopy`): the server reads them while the next batch is encoded, and a COPY's
    /// failure is thrown by a later write, or at the latest by `commit`.
    package func write(_ records: [NormalizedRecord]) throws {
        let data = try activeData()
        let owned = options.ownsChildren
        records.withUnsafeBufferPointer { records in
            for index in records.indices where records[index].entity == options.entity {
                if owned { carried |= records[index].carries }
                guard let t = records[index].modificationTimestamp else { continue }
                if newestTimestamp.map({ Value.timestamp($0, precedes: t) }) ?? true { newestTimestamp = t }
            }
        }
        let (deletions, kept) = records.split { $0.isDeletion }
        // Recognised copies send their key and ordinal from the batch in place; only the others are gathered (a
        // copy of a record retains and releases every reference it holds).
        let seenCount = kept.withUnsafeBufferPointer { kept in
            kept.indices.reduce(0) { $0 + (kept[$1].isRecognisedKey ? 1 : 0) }
        }
        let staged = seenCount == 0 ? kept : kept.filter { !$0.isRecognisedKey }
        if !deletions.isEmpty {
            deletedListings += try data.enqueueCopy(
                "COPY deleted_listings (listing_id, modification_timestamp, ordinal) FROM STDIN"
            ) { writer in
                for record in deletions {
                    writer.field(record.key)
                    writer.field(record.modificationTimestamp)
                    writer.field(record.ordinal)
                    try writer.endRow()
                }
            }
        }
        if options.sweep {
            try copySweptKeys(kept, data)
            return
        }
        if !decidedFirstLoad {
            decidedFirstLoad = true
            firstLoad = options.plan || options.entity != .listing ? nil : try firstLoadIfEmpty(data)
        }
        // Indices into `staged`, not arrays of its records: a record copied into another array retains and
        // releases every reference it holds (a first load's split cost its load thread a tenth of its time).
        var toStage = Array(staged.indices)
        if firstLoad != nil { toStage = try copyFirstCopies(staged, data) }
        if seenCount > 0 {
            // Spooled, not sent: the merge copies into `seen_listings` only those it needs (`RecognisedKeySpool`).
            let count = recognition?.value.count
            let spool = try recognisedSpool ?? RecognisedKeySpool(
                directory: options.spoolDirectory ?? SpoolDirectory.defaultPath)
            recognisedSpool = spool
            let before = spool.count
            try kept.withUnsafeBufferPointer { kept in
                for i in kept.indices {
                    guard kept[i].isRecognisedKey, let key = kept[i].key else { continue }
                    recognisedKeys.note(place: kept[i].storedPlace, of: count)
                    try spool.append(key: key, ordinal: kept[i].ordinal)
                }
            }
            skippedListings += spool.count - before
        }
        if !listingsNeedResolving {
            staged.withUnsafeBufferPointer { staged in
                for i in toStage where staged[i].entity == .listing {
                    guard let key = staged[i].key, !staged[i].contentHash.isEmpty,
                          stagedListingKeys.insert(key.hashValue).inserted else {
                        listingsNeedResolving = true
                        stagedListingKeys = []
                        break
                    }
                }
            }
        }
        let listings = staged.withUnsafeBufferPointer { staged in toStage.filter { staged[$0].entity == .listing } }
        if !listings.isEmpty {
            stagedListings += try copy(staged, only: listings, StagingTables.copy(.listing), first: .ordinal, data)
            if owned { try stageChildren(of: staged, listings, listingCopied: false, data) }
        }
        if listings.count < toStage.count {
            let others = staged.withUnsafeBufferPointer { staged in toStage.filter { staged[$0].entity != .listing } }
            for entity in [Entity.agent, .office, .openHouse, .media] {
                let rows = staged.withUnsafeBufferPointer { staged in others.filter { staged[$0].entity == entity } }
                guard !rows.isEmpty else { continue }
                let count = try copy(staged, only: rows, StagingTables.copy(entity), first: .ordinal, data)
                if entity == .agent { stagedAgents += count } else { stagedRows[entity, default: 0] += count }
            }
        }
        if stagedListings - stagedAtEarlyMerge >= options.earlyMergeRows, options.earlyMergeRows > 0,
           firstLoad == nil, !options.plan {
            try mergeEarly(data)
        }
        #if MLSFEED_TEST_HOOKS
        if !pausedAfterCopy {
            pausedAfterCopy = true
            try TestPause.copy.reach(connection: data)
        }
        #endif
    }


    /// What the COPYs queued behind a merge during the parse may hold while it runs (see `mergeEarly`).
    static let earlyMergeQueueBytes = 8 << 20

    /// Queues a merge of the listings staged since the last one (`MergeStatements.earlyMerge`), which the server
    /// runs after the COPYs before it while the pipeline goes on parsing; its counts go to `earlyMerges`.
    private func mergeEarly(_ data: Connection) throws {
        let first = !mergedEarly
        if first {
            try data.executeScript(MergeStatements.createEarlyMergeTables)
            data.raiseCopyQueueLimit(to: LoadSession.earlyMergeQueueBytes)
        }
        stagedAtEarlyMerge = stagedListings
        let totals = earlyMerges
        let parameters = [options.source, String(runID)]
        for (index, step) in MergeStatements.earlyMerge.enumerated() {
            let last = index == MergeStatements.earlyMerge.count - 1
            try data.enqueue(step.sql, Array(parameters.prefix(step.parameters)), done: last ? totals.add : nil)
        }
        #if MLSFEED_TEST_HOOKS
        if first { try TestPause.earlyMerge.reach(connection: data) }
        #endif
    }

    /// Copies the `records` at `indices` with `sql` (a `COPY ... FROM STDIN` in `StagingTables.write`'s column
    /// order): in binary when every value has a binary form for its column, which spares the server parsing
    /// numbers, dates and timestamps; else as text, so the server judges an odd value as it always did.
    func copy(_ records: [NormalizedRecord], only indices: [Int], _ sql: String, first: StagingTables.Leading,
              last: [Int64] = [], staging: Bool = true, _ data: Connection) throws -> Int {
        // Through the buffer: each record borrowed, not copied (a copy retains and releases its references).
        guard let firstIndex = indices.first else { return 0 }
        return try records.withUnsafeBufferPointer { records in
            try copy(sql, count: indices.count, entity: records[firstIndex].entity, first: first, last: last,
                     staging: staging, data) { row in
                for i in indices {
                    guard try row(records[i], false) else { return }
                }
            }
        }
    }

    /// Copies the `count` rows of `entity` that `rows` hands to its argument (which returns false once the rows go
    /// as text: `rows` may stop there; it is called again for the text COPY) with `sql`, as `copy` does, each with
    /// its `listingCopied` flag (media and open houses, see `StagingTables.staged`).
    func copy(_ sql: String, count: Int, entity: Entity, first: StagingTables.Leading, last: [Int64] = [],
              staging: Bool = true, _ data: Connection,
              rows: ((NormalizedRecord, Bool) throws -> Bool) throws -> Void) throws -> Int {
        binaryRows = BinaryCopyRows(reusing: data.copyBuffer(for: count * payloadBytesPerRow[entity, default: 0]))
        var binary = true
        try rows { record, listingCopied in
            guard binary else { return false }
            binary = StagingTables.append(record, first: first, last: last, staging: staging,
                                          listingCopied: listingCopied, extra: &extraWriter, json: &jsonBuffer,
                                          to: &binaryRows)
            return binary
        }
        // Queued: the server reads these rows while the pipeline encodes the next batch.
        if binary {
            let copied = binaryRows.count
            payloadBytesPerRow[entity] = max(payloadBytesPerRow[entity, default: 0],
                                             binaryRows.bytes.count / max(copied, 1) + 1)
            try data.enqueueCopy(sql + " (FORMAT binary)", payload: binaryRows.takePayload())
            return copied
        }
        textCopies += 1
        return try data.enqueueCopy(sql) { writer in
            try rows { record, listingCopied in
                try StagingTables.write(record, first: first, last: last, staging: staging,
                                        listingCopied: listingCopied, extra: &extraWriter, json: &jsonBuffer,
                                        to: writer)
                return true
            }
        }
    }

    /// Stages the media and open houses of the listings of `records` at `indices` (with their listing's ordinal),
    /// one COPY per table; `listingCopied`: their listing went straight into `listings` (a first load).
    func stageChildren(of records: [NormalizedRecord], _ indices: [Int], listingCopied: Bool,
                       _ data: Connection) throws {
        for entity in [Entity.media, .openHouse] where options.embedded.contains(entity) {
            try records.withUnsafeBufferPointer { records in
                let count = indices.reduce(0) { sum, i in
                    sum + records[i].children.reduce(0) { $0 + ($1.entity == entity ? 1 : 0) }
                }
                guard count > 0 else { return }
                stagedRows[entity, default: 0] += try copy(StagingTables.copy(entity), count: count, entity: entity,
                                                           first: .ordinal, data) { row in
                    for i in indices {
                        for child in records[i].children where child.entity == entity {
                            guard try row(child, listingCopied) else { return }
                        }
                    }
                }
            }
        }
    }

    /// Tells the session the stored listings the pipeline recognises records against (read on another connection,
    /// perhaps still being read). A full dump then takes the number of on-market listings from them instead of
    /// counting the source again. Call before `commit`.
    package func recognize(against stored: BlockingFuture<StoredListings>) {
        recognition = stored
    }

    /// Copies rejected records, with their reasons and raw fields, into `rejects` (inside the run's transaction).
    package func write(rejects: [Reject]) throws {
        guard !rejects.isEmpty else { return }
        let data = try activeData()
        let run = String(runID)
        try data.enqueueCopy("""
            COPY rejects (run_id, source, entity, key, file, line, column_number, ordinal, reasons, raw) FROM STDIN
            """) { writer in
            for reject in rejects {
                for field in [run, options.source, reject.entity.rawValue, reject.key, reject.position.file,
                              String(reject.position.line), String(reject.position.column), String(reject.ordinal),
                              TextArray.literal(reject.reasons.map(\.description))] {
                    writer.field(field)
                }
                // The raw fields as JSON bytes, not a String of them made only to be escaped.
                writer.field(bytes: reject.rawJSON ?? JSONText.pairsBytes(reject.raw))
                try writer.endRow()
            }
        }
    }

    /// Rolls the run's data back and records it `failed` (or `interrupted`: the caller knows whether a stop signal
    /// was the cause; a failure elsewhere also cancels this session's statements, which is no interruption) with
    /// `message` (secrets redacted) and what the run saw (`totals`: read, rejected, inputs, warnings, first
    /// rejects, completeness).
    /// Does nothing once the session has committed or failed.
    package func fail(_ message: String, interrupted: Bool = false, totals: RunTotals? = nil) {
        guard !finished else { return }
        finished = true
        let interrupted = interrupted || (stoppedBySignal?() ?? canceller.wasRequested)
        if let data { _ = try? data.execute("ROLLBACK") }
        data = nil
        closeRecognisedSpool()
        if let ledger, !options.plan {
            var result = LoadResult(runID: runID)
            result.duplicates = totals?.droppedDuplicates ?? 0
            _ = try? LoadSession.recordRun(ledger, source: options.source, id: runID,
                                           status: interrupted ? "interrupted" : "failed", result: result,
                                           totals: totals ?? RunTotals(), error: message)
        }
        releaseLedger()
    }

    /// Copies every spooled recognised key into `seen_listings` (once per run), for the statements that read them
    /// all: the count of keys that may repeat, the withdrawal by key, a plan.
    func sendRecognisedKeys(_ data: Connection) throws {
        guard seenSent != .all, let spool = recognisedSpool else { return }
        if seenSent == .staged { try data.execute("TRUNCATE seen_listings") }
        seenSent = .all
        seenCopied = try spool.copyAll(into: data)
    }

    /// Copies into `seen_listings` the spooled recognised keys that `incoming_listings` (`staged` keys, distinct)
    /// also holds, for `MergeStatements.resolveRecognisedOverlap`; returns how many rows it copied (0: no overlap).
    /// Every key when there are no more of them than staged ones; else the staged keys' hashes are read first
    /// (a hash that matches another key only copies a row the statement's join then leaves out).
    func sendStagedRecognisedKeys(_ data: Connection, staged: Int) throws -> Int {
        guard seenSent == .none, let spool = recognisedSpool else { return 0 }
        if spool.count <= staged {
            try sendRecognisedKeys(data)
            return spool.count
        }
        var hashes = Set<UInt64>(minimumCapacity: staged)
        try data.copyOutBinary("COPY (SELECT listing_id FROM incoming_listings) TO STDOUT (FORMAT binary)") { row in
            if let key = row.bytes(0) { hashes.insert(RecognisedKeySpool.keyHash(key)) }
        }
        seenSent = .staged
        seenCopied = try spool.copy(into: data, keysHashedIn: hashes)
        return seenCopied
    }

    /// Closes the recognised keys' spool once the run has ended, which frees its disk space (the session itself
    /// may live on: its owner reads the result).
    func closeRecognisedSpool() {
        recognisedSpool = nil
    }

    /// Indexes and analyzes `seen_listings`, with every recognised key, for the statements that join it by key
    /// (once per run).
    func indexSeenListings(_ data: Connection) throws {
        guard !seenIndexed else { return }
        try sendRecognisedKeys(data)
        seenIndexed = true
        try data.execute("CREATE INDEX ON seen_listings (listing_id)")
        try data.execute("ANALYZE seen_listings")
    }

    /// Sends the fingerprints of the stored listings that no recognised copy named into `unmatched_listings`, for
    /// `MergeStatements.withdrawUnnamed`; returns whether it did. False, sending nothing, when the run cannot know
    /// them: it has no stored set, two stored listings share a fingerprint, or a recognised copy named no place
    /// (`RecognisedKeys`).
    func sendUnnamedListings(_ data: Connection) throws -> Bool {
        guard let unnamed = unnamedFingerprints() else { return false }
        try WithdrawalSearch.sendUnmatched(unnamed, to: data, untilCommit: true)
        unnamedSent = true
        return true
    }

    /// The fingerprints of the stored listings no recognised copy named; nil when the places cannot tell (the set
    /// was not read, two stored listings share a fingerprint, or a copy named no place).
    private func unnamedFingerprints() -> [UInt64]? {
        guard let stored = recognition?.value, stored.onMarket != nil, !stored.repeatsHash,
              recognisedKeys.placesKnown else { return nil }
        return (0..<stored.count).compactMap { recognisedKeys.named($0) ? nil : stored.hash(at: $0) }
    }

    /// A connection of the run's besides the session's own: the same timeouts, its statements cancelled when the run
    /// is stopped. Safe from any thread.
    func sideConnection() throws -> Connection {
        let side = try Connection(conninfo, options: connectionOptions, shouldStop: { [cancellation] in
            cancellation?.isCancelled ?? false
        })
        canceller.watch(side)
        lockWatch?.watch(side)
        return side
    }

    /// Starts looking for the on-market listings no recognised copy named, beside the merge (`WithdrawalSearch`): nil
    /// when the places of the recognised copies are not known (see `sendUnnamedListings`).
    func startWithdrawalSearch() -> WithdrawalSearch? {
        guard let unnamed = unnamedFingerprints() else { return nil }
        return WithdrawalSearch(source: options.source, unmatched: unnamed, limit: goneSearchLimit) { [self] in
            try sideConnection()
        }
    }

    /// Releases the source's advisory lock explicitly, then closes the ledger connection. Closing alone would
    /// free the lock only when the server process exits, a moment later: a run started right after could still
    /// find it held.
    func releaseLedger() {
        lockWatch?.stop()
        _ = try? ledger?.execute("SELECT pg_advisory_unlock($1, hashtext($2))",
                                 [String(LoadSession.lockNamespace), LoadSession.lockName(options)])
        ledger = nil
        stopRegistration = nil
    }

    func activeData() throws -> Connection {
        guard !finished, let data else { throw LoadError("load run \(runID) has already finished") }
        return data
    }

    /// The second key of the source's lock (hashed by the server): the source alone, so that two pipelines of one
    /// source never write it together.
    static func lockName(_ options: LoadOptions) -> String {
        "source\u{1F}" + options.source
    }

    /// Takes the source's lock on `ledger`: at once when it is free; else, after logging who holds it, waiting for
    /// it up to `options.lockTimeout` seconds (a server-side wait under a `lock_timeout` of its own, which a stop
    /// cancels like any statement), then throwing `busy` (also when `timeouts.statement` ends the wait first; not
    /// when `stopped` says a stop did). The lock is the session's (it outlives the wait's transaction) until
    /// `releaseLedger` or the connection's end.
    private static func lockSource(_ ledger: Connection, _ options: LoadOptions, log: (@Sendable (String) -> Void)?,
                                   stopped: () -> Bool) throws {
        let key = [String(lockNamespace), lockName(options)]
        let locked = try ledger.execute("SELECT pg_try_advisory_lock($1, hashtext($2))", key)
        if locked.rows.first?.first == "t" { return }
        guard options.lockTimeout > 0 else { throw LoadError(try busyMessage(ledger, options), kind: .busy) }
        log?("\(try busyMessage(ledger, options)): waiting up to \(seconds(options.lockTimeout)) s "
             + "(load.lock_timeout)")
        try ledger.execute("BEGIN")
        do {
            // At least 1 ms: a `lock_timeout` of 0 would wait for ever.
            let milliseconds = String(max(1, Int((options.lockTimeout * 1000).rounded())))
            try ledger.execute("SELECT set_config('lock_timeout', $1, true)", [milliseconds])
            try ledger.execute("SELECT pg_advisory_lock($1, hashtext($2))", key)
            try ledger.execute("COMMIT")
        } catch {
            _ = try? ledger.execute("ROLLBACK")
            if let timeout = error as? PostgresError,
               timeout.code == .lockNotAvailable || (timeout.code == .queryCanceled && !stopped()) {
                throw LoadError(try busyMessage(ledger, options), kind: .busy)
            }
            throw error
        }
    }

    /// `source busy (run N of pipeline P, started at T)`: the run holding the source's lock, by its ledger row.
    private static func busyMessage(_ ledger: Connection, _ options: LoadOptions) throws -> String {
        let running = try ledger.execute("""
            SELECT id, pipeline, to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS started_at
            FROM ingest_runs WHERE source = $1 AND status = 'running' ORDER BY id DESC LIMIT 1
            """, [options.source])
        guard let id = running.value(0, "id"), let pipeline = running.value(0, "pipeline"),
              let started = running.value(0, "started_at") else {
            // A plan records no run, and a run holds the lock a moment before its row exists.
            return "source busy (held by a session with no running run: a plan, or a run starting)"
        }
        return "source busy (run \(id) of pipeline \(pipeline), started at \(started))"
    }

    /// Seconds as written in a setting: `300`, `0.5`.
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// What of the recognised keys' spool is in `seen_listings`.
    private enum SeenSent {
        case none, staged, all
    }
}
