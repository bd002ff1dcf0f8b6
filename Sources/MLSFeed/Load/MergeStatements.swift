/// The SQL that merges a run's resolved incoming rows into `listings`, `agents` and the other tables.
///
/// Parameters: `$1` source, `$2` run id (and for `updateListings` and `withdraw`, `$3` the dump's as-of time).
enum MergeStatements {

    /// All incoming rows (of `rows`, by default the entity's incoming table) inserted as they are: the fast path
    /// for a source with no rows yet.
    static func insertAll(_ entity: Entity, from rows: String? = nil) -> String {
        let columns = entity.columns.map(\.name).joined(separator: ", ")
        let bookkeeping = StagingTables.bookkeeping(entity)
        return """
            INSERT INTO \(entity.table)
                (source, \(columns), extra, content_hash\(bookkeeping), first_seen_run, last_changed_run)
            SELECT $1, \(columns), extra, content_hash\(bookkeeping), $2, $2
            FROM \(rows ?? StagingTables.incoming(entity))
            """
    }

    /// Rows new to the source inserted (keys already stored are left to `updateListings`/`updateAgents`).
    /// `rows`: as `insertAll`'s. `afterEarlyMerges`: the listings merged during the parse are left out (see
    /// `notMergedEarly`).
    static func insertNew(_ entity: Entity, from rows: String? = nil, afterEarlyMerges: Bool = false) -> String {
        let table = entity.table
        let key = entity.keyColumn
        return insertAll(entity, from: rows) + """

            i WHERE \(afterEarlyMerges ? notMergedEarly("i") + " AND " : "")NOT EXISTS (
                SELECT 1 FROM \(table) t WHERE t.source = $1 AND t.\(key) = i.\(key))
            """
    }

    /// True for an incoming listing (`alias`) that no merge during the parse wrote (`earlyMerge`): the end's
    /// statements would find those stored as they come, and skip them without looking them up in `listings`.
    /// A listing staged more than once is not among them: `removeRepeatedEarlyMerges` forgets it.
    static func notMergedEarly(_ alias: String) -> String {
        "NOT EXISTS (SELECT 1 FROM early_merged e WHERE e.listing_id = \(alias).listing_id)"
    }

    /// `i.<column>`, or the stored `l.<column>` when the incoming record's feed does not carry it (`absent`).
    private static func merged(_ column: String, at index: Int) -> String {
        "CASE WHEN i.absent & \(bit(index)) = 0 THEN i.\(column) ELSE l.\(column) END"
    }

    /// The mask bit of column `index` as a bigint literal (bit 63 is the sign bit of PostgreSQL's bigint).
    private static func bit(_ index: Int) -> String {
        String(Int64(bitPattern: UInt64(1) << UInt64(index)))
    }

    /// The listing columns after the key, with their index in `Column.listing`.
    private static var assignedListingColumns: [(name: String, index: Int)] {
        Column.listing.enumerated().filter { $0.offset > 0 }.map { ($0.element.name, $0.offset) }
    }

    /// True when a partial incoming row (`absent <> 0`) differs from the stored row in a column or `extra` key it
    /// carries.
    static let partialDiffers: String = {
        let columns = assignedListingColumns.map { column, index in
            "(i.absent & \(bit(index)) = 0 AND l.\(column) IS DISTINCT FROM i.\(column))"
        }
        return "(" + (columns + ["NOT l.extra @> i.extra"]).joined(separator: "\n                        OR ") + ")"
    }()

    /// True when merging a partial incoming row keeps a stored value that differs from the row's own (its default
    /// or NULL): the merged row is then not the one the incoming content hash describes.
    private static let keepsOtherValues: String = {
        let columns = assignedListingColumns.map { column, index in
            "(i.absent & \(bit(index)) <> 0 AND l.\(column) IS DISTINCT FROM i.\(column))"
        }
        return "(" + (columns + ["(l.extra || i.extra) <> i.extra"]).joined(separator: " OR ") + ")"
    }()

    /// The SET list shared by updates that merge `incoming_listings i` into `listings l`: the carried columns, the
    /// extra keys (a partial row keeps the stored keys it does not carry), the content hash (empty, meaning "compare
    /// the columns next time", when the merge kept values the incoming hash does not describe) and the raw
    /// fingerprint (kept only with a valid content hash).
    private static let mergedAssignments: String = {
        let targets = assignedListingColumns.map(\.name) + ["extra", "content_hash", "raw_hash"]
        let values = assignedListingColumns.map { merged($0.name, at: $0.index) } + [
            "CASE WHEN i.absent = 0 THEN i.extra ELSE l.extra || i.extra END",
            "CASE WHEN i.absent = 0 OR NOT \(keepsOtherValues) THEN i.content_hash ELSE '' END",
            "CASE WHEN i.absent = 0 OR NOT \(keepsOtherValues) THEN i.raw_hash END",
        ]
        let indent = "\n                "
        return "(\(targets.joined(separator: ", "))) =\(indent)(\(values.joined(separator: ",\(indent) ")))"
    }()

    /// Whether the incoming copy `i` may replace the stored row `l` (see `updateListings`): for a listing off the
    /// market, the dump (as of `$3`) is not older than the dump that withdrew it, or the record was modified after
    /// that; otherwise an incoming modification timestamp at least the stored one; a record without one never
    /// overwrites a row with one; and between undated rows the dumps' as-of times decide (`$4`: the newest as-of of
    /// the source's earlier successful runs).
    static let isFresh = """
        CASE WHEN l.off_market_at IS NOT NULL AND l.off_market_as_of IS NOT NULL
                 THEN $3::timestamptz >= l.off_market_as_of
                      OR coalesce(i.modification_timestamp > l.off_market_as_of, false)
             WHEN i.modification_timestamp IS NOT NULL AND l.modification_timestamp IS NOT NULL
                 THEN i.modification_timestamp >= l.modification_timestamp
             WHEN l.modification_timestamp IS NOT NULL THEN false
             ELSE $4::timestamptz IS NULL OR $3::timestamptz >= $4::timestamptz END
        """

    /// Listings whose content changed (or that come back from off-market) and whose incoming record is fresh
    /// (`isFresh`) are rewritten, with a history row for a price or status change, a withdrawal's return included;
    /// identical rows are filtered out (by hash, or column by column for a partial record) before anything is
    /// locked.
    ///
    /// The UPDATE tests freshness again against the row it writes, not only against the snapshot `diff` read: when
    /// another transaction changed the row meanwhile (a writer the source's lock does not hold back), the server
    /// re-reads the committed row before writing it, and an older copy then writes nothing, whatever the isolation
    /// or interleaving. Stale counts every changed copy not written. Returns (updated, stale, off_market: the
    /// incoming listings that were off-market before, whether they came back or were stale).
    /// Parameters: `$1` source, `$2` run id, `$3` the dump's as-of time, `$4` the source's newest earlier as-of.
    /// `afterEarlyMerges`: the listings merged during the parse are left out (see `notMergedEarly`).
    static func updateListings(afterEarlyMerges: Bool) -> String {
        let early = afterEarlyMerges ? "(\(notMergedEarly("i")))\n                  AND " : ""
        return """
            WITH diff AS MATERIALIZED (
                SELECT i.listing_id, l.list_price AS old_price, l.standard_status AS old_status,
                       l.off_market_at IS NOT NULL AS was_off_market, \(isFresh) AS fresh
                FROM incoming_listings i
                JOIN listings l ON l.source = $1 AND l.listing_id = i.listing_id
                WHERE \(early)(l.off_market_at IS NOT NULL
                   OR (i.absent = 0 AND l.content_hash <> i.content_hash)
                   OR (i.absent <> 0 AND \(partialDiffers)))
            ),
            changed AS (
                UPDATE listings l
                SET \(mergedAssignments),
                    last_changed_run = $2, off_market_at = NULL, off_market_as_of = NULL
                FROM incoming_listings i JOIN diff d ON d.listing_id = i.listing_id AND d.fresh
                WHERE l.source = $1 AND l.listing_id = i.listing_id AND \(isFresh)
                RETURNING l.listing_id, l.list_price, l.standard_status, l.modification_timestamp
            ),
            history AS (
                \(historyOfUpdates(from: "changed c JOIN diff d USING (listing_id)", oldPrice: "d.old_price",
                                   oldStatus: "d.old_status", returned: "d.was_off_market"))
            )
            SELECT (SELECT count(*) FROM changed) AS updated,
                   (SELECT count(*) FROM diff) - (SELECT count(*) FROM changed) AS stale,
                   (SELECT count(*) FROM diff WHERE was_off_market) AS off_market
            """
    }

    /// The history rows of updated listings whose price or status changed, or that came back (`returned`, when
    /// given): `rows` names the updated rows `c` (their key, new price, status and modification time) beside the
    /// old price and status.
    private static func historyOfUpdates(from rows: String, oldPrice: String, oldStatus: String,
                                         returned: String? = nil) -> String {
        let price = "c.list_price IS DISTINCT FROM \(oldPrice)"
        let status = "c.standard_status IS DISTINCT FROM \(oldStatus)"
        let labels = (returned.map { ["WHEN \($0) THEN 'returned'"] } ?? []) + [
            "WHEN \(price) AND \(status) THEN 'price+status'", "WHEN \(price) THEN 'price'", "ELSE 'status'",
        ]
        return """
            INSERT INTO listing_history (source, listing_id, run_id, modification_timestamp, change,
                                         old_price, new_price, old_status, new_status)
            SELECT $1, c.listing_id, $2, c.modification_timestamp,
                   CASE \(labels.joined(separator: "\n                        ")) END,
                   \(oldPrice), c.list_price, \(oldStatus), c.standard_status
            FROM \(rows)
            WHERE \(returned.map { "\($0) OR " } ?? "")\(price) OR \(status)
            """
    }

    /// `updateListings(afterEarlyMerges: false)`.
    static let updateListings = updateListings(afterEarlyMerges: false)

    /// A first load's resolved repeats replace the copy already in `listings` unless that copy is newer (it is
    /// always the earlier record, so it wins only with a strictly newer timestamp, or a timestamp against none).
    static let replaceWithLaterCopies: String = {
        """
            UPDATE listings l
            SET \(mergedAssignments)
            FROM incoming_listings i
            WHERE l.source = $1 AND l.listing_id = i.listing_id
              AND (l.modification_timestamp IS NULL OR i.modification_timestamp >= l.modification_timestamp)
            """
    }()

    /// On-market listings whose content is unchanged but whose record was spelled differently (or read with
    /// warnings) keep the incoming raw fingerprint, so the next run recognises them (or stops doing so).
    /// Touches nothing in the steady state: a listing recognised unchanged is never staged.
    static let refreshRawHashes = refreshRawHashes(afterEarlyMerges: false)

    /// `refreshRawHashes`; `afterEarlyMerges`: the listings merged during the parse are left out (`notMergedEarly`).
    static func refreshRawHashes(afterEarlyMerges: Bool) -> String {
        """
        UPDATE listings l SET raw_hash = i.raw_hash
        FROM incoming_listings i
        WHERE \(afterEarlyMerges ? notMergedEarly("i") + " AND " : "")l.source = $1 AND l.listing_id = i.listing_id
          AND l.off_market_at IS NULL AND l.content_hash = i.content_hash AND l.raw_hash IS DISTINCT FROM i.raw_hash
        """
    }

    /// Agents (or the offices listings name) whose content changed are updated; a field the incoming record lacks
    /// keeps its stored value (listing-embedded agents carry fewer fields than roster records). Returns the rows
    /// updated.
    static func updateShared(_ entity: Entity) -> String {
        let key = entity.keyColumn
        let assigned = entity.columns.map(\.name).filter { $0 != key }
        return """
            WITH changed AS (
                UPDATE \(entity.table) a
                SET (\(assigned.joined(separator: ", ")), extra, content_hash, last_changed_run) =
                    (\(assigned.map { "coalesce(i.\($0), a.\($0))" }.joined(separator: ", ")),
                     a.extra || i.extra, i.content_hash, $2)
                FROM \(StagingTables.incoming(entity)) i
                WHERE a.source = $1 AND a.\(key) = i.\(key) AND a.content_hash <> i.content_hash
                RETURNING 1
            )
            SELECT count(*) FROM changed
            """
    }

    /// `updateShared(.agent)`.
    static let updateAgents = updateShared(.agent)

    /// Deletes the staged (changed) copies that lose to a recognised (unchanged, stored) copy of the same listing
    /// in `keys` (a table or CTE of `listing_id, ordinal`), by the dedupe rule: newest `modification_timestamp`,
    /// then the later record. A recognised copy is the stored row exactly, so its timestamp is the row's. `$1`: the
    /// source. The stored row is read by a scalar subquery, which runs only for the keys both staged and recognised:
    /// as a join, the planner (which cannot know a CTE's size) looked up every staged key in `listings` first
    /// (at 1M, 28,000 index probes for 3,000 overlapping keys: 0.95 of the statement's 1.3 s).
    static func dropLosingChangedCopies(from keys: String) -> String {
        """
        DELETE FROM incoming_listings i USING \(keys) s
        WHERE s.listing_id = i.listing_id
          AND (SELECT (coalesce(l.modification_timestamp, '-infinity'), s.ordinal)
                      > (coalesce(i.modification_timestamp, '-infinity'), i.ordinal)
               FROM listings l WHERE l.source = $1 AND l.listing_id = s.listing_id)
        """
    }

    /// For distinct recognised keys: how many were also staged (`overlap`: one hash join of the few staged keys
    /// against the many recognised, no index). The staged copies among those that lose are deleted on the way (a
    /// data-modifying `WITH` runs to completion whether or not the query reads it).
    static let resolveRecognisedOverlap = """
        WITH overlap AS MATERIALIZED (
            SELECT s.listing_id, s.ordinal FROM seen_listings s JOIN incoming_listings i USING (listing_id)
        ),
        dropped AS (
        \(dropLosingChangedCopies(from: "overlap"))
        RETURNING 1
        )
        SELECT count(*) AS overlap FROM overlap
        """

    /// A full dump's reconciliation: active listings of the source that the dump neither carries (staged, or
    /// sent as an unchanged key in `seen_listings`) nor rejected, and that were not modified after the dump's as-of
    /// time (`$3`), are marked Withdrawn (never deleted), remembering that as-of time, with a history row each.
    /// Returns the rows withdrawn. The anti-join reads the on-market listings from `listings_on_market_idx` (an
    /// index-only scan, not the table); the few it finds are then read and updated by key (`= ANY` of their array),
    /// which the planner cannot turn into a scan of the table however many it expects.
    static let withdraw = withdraw(gone: notCarried(
        from: "listings o", "NOT EXISTS (SELECT 1 FROM seen_listings s WHERE s.listing_id = o.listing_id)"))

    /// `withdraw` for a run that knows which stored listings no recognised copy named (their fingerprints in
    /// `unmatched_listings`, see `RecognisedKeys`): only those, and listings without a fingerprint (when the source
    /// has any: `withoutFingerprint`), can be missing from the dump. A hash join of the on-market index with those
    /// few replaces a probe of `seen_listings` for every on-market key (and the index that probe needs).
    static func withdrawUnnamed(withoutFingerprint: Bool) -> String {
        withdraw(among: notCarried(from: "listings o JOIN unmatched_listings u ON u.raw_hash = o.raw_hash"),
                 withoutFingerprint: withoutFingerprint)
    }

    /// `withdrawUnnamed` for a run whose `WithdrawalSearch` found those listings' keys (`$4`, a text array) beside the
    /// merge: each is read again here by its key and checked as `notCarried` checks every candidate.
    static func withdrawFound(withoutFingerprint: Bool) -> String {
        withdraw(among: notCarried(from: "listings o", "o.listing_id = ANY ($4::text[])"),
                 withoutFingerprint: withoutFingerprint)
    }

    /// The withdrawal of the listings `named` selects and, with `withoutFingerprint`, of those with no fingerprint.
    private static func withdraw(among named: String, withoutFingerprint: Bool) -> String {
        let unnamed = notCarried(from: "listings o", "o.raw_hash IS NULL")
        return withdraw(gone: withoutFingerprint ? "\(named)\n    UNION ALL\n    \(unnamed)" : named)
    }

    /// The keys of the source's on-market listings read `from` (as `o`) that match `condition`, were not modified
    /// after the dump's as-of time, and are not staged (`withdraw` leaves out the rejected ones).
    private static func notCarried(from listings: String, _ condition: String? = nil) -> String {
        """
        SELECT o.listing_id FROM \(listings)
            WHERE o.source = $1 AND o.off_market_at IS NULL\(condition.map { " AND \($0)" } ?? "")
              AND (o.modification_timestamp IS NULL OR o.modification_timestamp <= $3::timestamptz)
              AND NOT EXISTS (SELECT 1 FROM incoming_listings i WHERE i.listing_id = o.listing_id)
        """
    }

    /// The withdrawal of the listings whose keys `gone` selects, less those the run rejected. The UPDATE tests again
    /// that each is on the market and not modified after the dump, against the row it writes (see `updateListings`).
    /// The rejected keys (the run's, of its source: named so that the statement stays within one source's rows,
    /// see docs/scaling.md) are a hashed subplan read once (`NOT IN`, without NULL keys, means `NOT EXISTS` here)
    /// and tested on the few candidates only: `rejects` is not analyzed after the run's COPY, so as an anti-join
    /// the planner expected one reject and compared every candidate with every reject (at 100k, 500 x 1,000
    /// comparisons, 37 of the 58 ms the withdrawal took to find what is gone).
    private static func withdraw(gone: String) -> String {
        """
        WITH gone AS MATERIALIZED (
            SELECT l.listing_id, l.standard_status AS old_status, l.list_price
            FROM listings l
            WHERE l.source = $1 AND l.off_market_at IS NULL AND l.listing_id = ANY (ARRAY(
                \(gone)))
              AND l.listing_id NOT IN (SELECT r.key FROM rejects r
                                       WHERE r.source = $1 AND r.run_id = $2 AND r.entity = 'listing'
                                         AND r.key IS NOT NULL)
        ),
        marked AS (
            UPDATE listings l
            SET standard_status = 'Withdrawn', off_market_at = now(), off_market_as_of = $3::timestamptz,
                last_changed_run = $2
            WHERE l.source = $1 AND l.listing_id = ANY (ARRAY(SELECT listing_id FROM gone))
              AND l.off_market_at IS NULL
              AND (l.modification_timestamp IS NULL OR l.modification_timestamp <= $3::timestamptz)
            RETURNING l.listing_id
        ),
        history AS (
            INSERT INTO listing_history (source, listing_id, run_id, change, old_price, new_price,
                                         old_status, new_status)
            SELECT $1, g.listing_id, $2, 'withdrawn', g.list_price, g.list_price, g.old_status, 'Withdrawn'
            FROM gone g WHERE g.listing_id IN (SELECT listing_id FROM marked)
        )
        SELECT count(*) FROM marked
        """
    }

    /// A Web API's deletions (`deleted_when`): listings of the source on the market that a deletion names and that
    /// were not modified after it are withdrawn (never deleted, never inserted when unknown), with a history row;
    /// the UPDATE tests that again against the row it writes (see `updateListings`).
    /// Parameters: `$1` source, `$2` run id, `$3` the run's as-of time (for a deletion without a timestamp).
    static let applyDeletions = """
        WITH newest AS (
            SELECT DISTINCT ON (listing_id) listing_id, modification_timestamp
            FROM deleted_listings ORDER BY listing_id, modification_timestamp DESC NULLS LAST, ordinal DESC
        ),
        gone AS MATERIALIZED (
            SELECT l.listing_id, l.standard_status AS old_status, l.list_price, n.modification_timestamp
            FROM newest n JOIN listings l ON l.source = $1 AND l.listing_id = n.listing_id
            WHERE l.off_market_at IS NULL
              AND (l.modification_timestamp IS NULL OR n.modification_timestamp IS NULL
                   OR n.modification_timestamp >= l.modification_timestamp)
        ),
        marked AS (
            UPDATE listings l
            SET standard_status = 'Withdrawn', off_market_at = now(),
                off_market_as_of = coalesce(g.modification_timestamp, $3::timestamptz), last_changed_run = $2
            FROM gone g
            WHERE l.source = $1 AND l.listing_id = g.listing_id AND l.off_market_at IS NULL
              AND (l.modification_timestamp IS NULL OR g.modification_timestamp IS NULL
                   OR g.modification_timestamp >= l.modification_timestamp)
            RETURNING l.listing_id
        ),
        history AS (
            INSERT INTO listing_history (source, listing_id, run_id, modification_timestamp, change, old_price,
                                         new_price, old_status, new_status)
            SELECT $1, g.listing_id, $2, g.modification_timestamp, 'withdrawn', g.list_price, g.list_price,
                   g.old_status, 'Withdrawn'
            FROM gone g WHERE g.listing_id IN (SELECT listing_id FROM marked)
        )
        SELECT count(*) FROM marked
        """
}

extension MergeStatements {
    /// The temporary tables of the merges made while the parse goes on (`earlyMerge`): the listings they wrote
    /// (and whether they inserted them), the stored rows they replaced, how far into `staging_listings` they have
    /// read (a row's `ctid`: the staging table is only ever appended to until the end's merge), and one merge's
    /// staged copies and the stored rows they replace.
    static let createEarlyMergeTables = """
        CREATE TEMP TABLE early_merged (listing_id text NOT NULL, inserted boolean NOT NULL, ordinal bigint NOT NULL)
            ON COMMIT DROP;
        CREATE INDEX ON early_merged (listing_id);
        CREATE TEMP TABLE early_originals (LIKE listings) ON COMMIT DROP;
        CREATE TEMP TABLE early_merge_mark (mark tid NOT NULL) ON COMMIT DROP;
        INSERT INTO early_merge_mark VALUES ('(0,0)');
        CREATE TEMP TABLE early_chunk (LIKE staging_listings) ON COMMIT DROP;
        CREATE TEMP TABLE early_stored (LIKE listings) ON COMMIT DROP
        """

    /// A merge of the listings staged since the last one, run while the parse goes on (so the server writes them
    /// while the client still parses), in the run's transaction: these statements in order, each with the first
    /// `parameters` of (`$1` source, `$2` run id); the last returns (updated, inserted).
    ///
    /// It writes only what the end's merge would write anyway whatever comes later in the dump, but for a later
    /// copy of the same listing:
    /// - a stored on-market listing whose staged copy is complete (`absent = 0`), changed (its content hash) and
    ///   strictly newer than the stored row: the end's merge would find it fresh, and a recognised (unchanged)
    ///   copy of it, anywhere in the dump, loses to it by the dedupe rule (its timestamp is the stored row's). The
    ///   end's `dropLosingChangedCopies`, which reads the row this merge wrote, may then drop the staged copy as
    ///   a loser: harmless, as it is merged already and the listing counts as present either way;
    /// - a listing new to the source (a complete, dated copy).
    /// Listings it wrote before are left to the end. The stored rows it replaces are kept in `early_originals`, so
    /// that a listing staged again later (a repeat farther apart than the dedupe window) is put back as it was and
    /// merged by the end's rules (`removeRepeatedEarlyMerges`). The UPDATE tests the copy against the row it writes
    /// (see `updateListings`): one another transaction changed meanwhile is left to the end's merge.
    ///
    /// The copies and the stored rows go through small tables of their own, analyzed: joined as CTEs, whose size the
    /// planner cannot know, a chunk's 2,000 changed rows were matched to their stored rows by a nested loop over
    /// both (3.5 million comparisons, 0.5 of a merge's 0.66 s at 1M).
    static let earlyMerge: [(sql: String, parameters: Int)] = [
        ("TRUNCATE early_chunk, early_stored", 0),
        ("""
            WITH picked AS (
                INSERT INTO early_chunk
                SELECT DISTINCT ON (i.listing_id) i.*
                FROM staging_listings i
                WHERE i.ctid > (SELECT mark FROM early_merge_mark)
                  AND i.absent = 0 AND i.content_hash <> '' AND i.modification_timestamp IS NOT NULL
                  AND NOT EXISTS (SELECT 1 FROM early_merged e WHERE e.listing_id = i.listing_id)
                ORDER BY i.listing_id, i.modification_timestamp DESC, i.ordinal DESC
            )
            UPDATE early_merge_mark
            SET mark = coalesce((SELECT max(ctid) FROM staging_listings WHERE ctid > early_merge_mark.mark), mark)
            """, 0),
        ("ANALYZE early_chunk (listing_id)", 0),
        ("""
            INSERT INTO early_stored
            SELECT l.* FROM early_chunk i JOIN listings l ON l.source = $1 AND l.listing_id = i.listing_id
            WHERE l.off_market_at IS NULL AND i.modification_timestamp > l.modification_timestamp
              AND l.content_hash <> i.content_hash
            """, 1),
        ("ANALYZE early_stored (listing_id)", 0),
        ("""
            WITH changed AS (
                UPDATE listings l
                SET \(mergedAssignments),
                    last_changed_run = $2, off_market_at = NULL, off_market_as_of = NULL
                FROM early_chunk i JOIN early_stored s USING (listing_id)
                WHERE l.source = $1 AND l.listing_id = i.listing_id
                  AND l.off_market_at IS NULL AND i.modification_timestamp > l.modification_timestamp
                RETURNING l.listing_id, l.list_price, l.standard_status, l.modification_timestamp,
                          s.list_price AS old_price, s.standard_status AS old_status
            ),
            saved AS (
                INSERT INTO early_originals
                SELECT s.* FROM early_stored s WHERE s.listing_id IN (SELECT listing_id FROM changed)
            ),
            history AS (
                \(historyOfUpdates(from: "changed c", oldPrice: "c.old_price", oldStatus: "c.old_status"))
            ),
            new AS (
                \(insertNew(.listing, from: "early_chunk"))
                RETURNING listing_id
            ),
            merged AS (
                INSERT INTO early_merged (listing_id, inserted, ordinal)
                SELECT m.listing_id, m.inserted, k.ordinal
                FROM (SELECT listing_id, false AS inserted FROM changed
                      UNION ALL SELECT listing_id, true FROM new) m
                JOIN early_chunk k USING (listing_id)
            )
            SELECT (SELECT count(*) FROM changed) AS updated, (SELECT count(*) FROM new) AS inserted
            """, 2),
    ]

    /// The listings the merges during the parse wrote that were staged more than once (a repeat farther apart
    /// than the dedupe window): deleted, with the run's history rows for them, so that `restoreRepeatedOriginals`
    /// can put back the stored rows and the end's merge resolve every copy as it always does. Returns the keys and
    /// whether the early merge had inserted them (those stay deleted). `$1` source, `$2` run id.
    static let removeRepeatedEarlyMerges = """
        WITH repeated AS MATERIALIZED (
            SELECT e.listing_id, e.inserted FROM early_merged e
            JOIN (SELECT listing_id FROM staging_listings GROUP BY listing_id HAVING count(*) > 1) r USING (listing_id)
        ),
        removed AS (
            DELETE FROM listings l
            WHERE l.source = $1 AND l.listing_id = ANY (ARRAY(SELECT listing_id FROM repeated))
        ),
        unrecorded AS (
            DELETE FROM listing_history h
            WHERE h.source = $1 AND h.listing_id = ANY (ARRAY(SELECT listing_id FROM repeated)) AND h.run_id = $2
        ),
        forgotten AS (
            DELETE FROM early_merged e USING repeated r WHERE e.listing_id = r.listing_id
        )
        SELECT listing_id, inserted FROM repeated
        """

    /// Puts back the stored rows of the listings `removeRepeatedEarlyMerges` removed (their keys as `$1`, a text
    /// array).
    static let restoreRepeatedOriginals = """
        INSERT INTO listings SELECT o.* FROM early_originals o WHERE o.listing_id = ANY ($1::text[])
        """
}
