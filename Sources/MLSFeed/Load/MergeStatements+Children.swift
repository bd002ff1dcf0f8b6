/// The SQL that merges a listing's media and open houses (`Entity.belongsToListing`) with the copy of the listing
/// that won, and the rows of a resource feed (`entity: office`, `open_house`, `media`) as listings are merged.
///
/// Parameters as `MergeStatements`': `$1` source, `$2` run id, `$3` the dump's as-of time, `$4` the source's
/// newest earlier as-of.
extension MergeStatements {
    /// `CREATE TEMP TABLE written_listings`: each listing whose staged copy the run's merge left in `listings`, with
    /// that copy's ordinal, from `incoming_listings` after the merge: those the run wrote (`last_changed_run`), and
    /// the unchanged ones (`isFresh` against the row as it is: a stale copy, older than the stored row or kept out
    /// by a dump's withdrawal, is not there). `firstLoad` (every row is the run's; `$1` alone): a repeat is there
    /// unless the copy already in `listings` is newer (`replaceWithLaterCopies`). `afterEarlyMerges`: with the
    /// listings the merges during the parse wrote (their copy's ordinal kept in `early_merged`), whether or not
    /// `incoming_listings` still has them.
    static func writtenListings(firstLoad: Bool, afterEarlyMerges: Bool) -> String {
        let fresh = firstLoad
            ? "NOT (l.modification_timestamp IS NOT NULL AND (i.modification_timestamp IS NULL "
                + "OR i.modification_timestamp < l.modification_timestamp))"
            : "l.last_changed_run = $2::bigint OR \(isFresh)"
        let early = afterEarlyMerges
            ? """

              UNION ALL
              SELECT e.listing_id, e.ordinal FROM early_merged e
              WHERE NOT EXISTS (SELECT 1 FROM incoming_listings i WHERE i.listing_id = e.listing_id)
              """
            : ""
        return """
            CREATE TEMP TABLE written_listings ON COMMIT DROP AS
            SELECT i.listing_id, i.ordinal
            FROM incoming_listings i JOIN listings l ON l.source = $1 AND l.listing_id = i.listing_id
            WHERE \(fresh)\(early)
            """
    }

    /// `CREATE TEMP TABLE incoming_<table>`: the staged rows of the listings' winning copies (`written_listings`),
    /// and those of a first load's copied listings that no repeat replaced; one per key, the later listing's (and
    /// within a listing the later row) when a key repeats.
    static func resolveChildren(_ entity: Entity) -> String {
        let key = entity.keyColumn
        return """
            CREATE TEMP TABLE \(StagingTables.incoming(entity)) ON COMMIT DROP AS
            SELECT DISTINCT ON (s.\(key)) s.*
            FROM \(StagingTables.table(entity)) s
            WHERE EXISTS (SELECT 1 FROM written_listings w WHERE w.listing_id = s.listing_id AND w.ordinal = s.ordinal)
               OR (s.listing_copied
                   AND NOT EXISTS (SELECT 1 FROM written_listings w WHERE w.listing_id = s.listing_id))
            ORDER BY s.\(key), s.ordinal DESC, s.ctid DESC
            """
    }

    /// Deletes the rows of the written listings that their copy no longer lists (a key it lists under another
    /// listing moves there in `replaceChildren`). Returns the rows deleted.
    static func deleteUnlisted(_ entity: Entity) -> String {
        let key = entity.keyColumn
        return """
            WITH gone AS (
                DELETE FROM \(entity.table) t USING written_listings w
                WHERE t.source = $1 AND t.listing_id = w.listing_id
                  AND NOT EXISTS (SELECT 1 FROM \(StagingTables.incoming(entity)) i WHERE i.\(key) = t.\(key))
                RETURNING 1
            )
            SELECT count(*) FROM gone
            """
    }

    /// Rewrites the stored rows whose incoming row differs, every column (the listing's copy is the whole truth
    /// about them; a resource feed's row about itself), when the incoming row is fresh: `fresh` as
    /// `resourceIsFresh` for a resource feed's rows, nothing for a listing's (its listing decided). Returns (updated,
    /// stale).
    static func replaceRows(_ entity: Entity, checkFreshness: Bool) -> String {
        let key = entity.keyColumn
        let assigned = entity.columns.map(\.name).filter { $0 != key }
        let fresh = checkFreshness ? resourceIsFresh : "true"
        return """
            WITH diff AS MATERIALIZED (
                SELECT i.\(key), \(fresh) AS fresh
                FROM \(StagingTables.incoming(entity)) i
                JOIN \(entity.table) t ON t.source = $1 AND t.\(key) = i.\(key)
                WHERE t.content_hash <> i.content_hash
            ),
            changed AS (
                UPDATE \(entity.table) t
                SET (\(assigned.joined(separator: ", ")), extra, content_hash, last_changed_run) =
                    (\(assigned.map { "i.\($0)" }.joined(separator: ", ")), i.extra, i.content_hash, $2)
                FROM \(StagingTables.incoming(entity)) i JOIN diff d ON d.\(key) = i.\(key) AND d.fresh
                WHERE t.source = $1 AND t.\(key) = i.\(key) AND \(fresh)
                RETURNING 1
            )
            SELECT (SELECT count(*) FROM changed) AS updated,
                   (SELECT count(*) FROM diff) - (SELECT count(*) FROM changed) AS stale
            """
    }

    /// Whether a resource feed's incoming row `i` may replace the stored row `t`: its modification timestamp is at
    /// least the stored one; a row without one never overwrites a row with one.
    static let resourceIsFresh = """
        CASE WHEN i.modification_timestamp IS NOT NULL AND t.modification_timestamp IS NOT NULL
                 THEN i.modification_timestamp >= t.modification_timestamp
             ELSE t.modification_timestamp IS NULL END
        """

    /// A resource feed's full dump: the source's rows of `entity` that the dump neither carries nor rejected (the
    /// run's rejects of its source: the statement stays within one source's rows), and that were not modified
    /// after the dump's as-of time (`$3`), are deleted. Returns the rows deleted.
    static func deleteMissing(_ entity: Entity) -> String {
        let key = entity.keyColumn
        return """
            WITH gone AS (
                DELETE FROM \(entity.table) t
                WHERE t.source = $1
                  AND NOT EXISTS (SELECT 1 FROM \(StagingTables.incoming(entity)) i WHERE i.\(key) = t.\(key))
                  AND (t.modification_timestamp IS NULL OR t.modification_timestamp <= $3::timestamptz)
                  AND t.\(key) NOT IN (SELECT r.key FROM rejects r
                                       WHERE r.source = $1 AND r.run_id = $2 AND r.entity = '\(entity.rawValue)'
                                         AND r.key IS NOT NULL)
                RETURNING 1
            )
            SELECT count(*) FROM gone
            """
    }
}
