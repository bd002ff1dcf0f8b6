import Dispatch
import Foundation
import Postgres

/// Looks for the listings a full dump may have left out on a connection of its own, while the run's merge goes on
/// on the run's: the source's on-market listings whose raw fingerprints no recognised copy named. The withdrawal
/// then checks only those keys in the run's transaction (`MergeStatements.withdrawFound`).
///
/// The search reads the committed rows, which are the rows as the run found them (the run's lock keeps the source's
/// rows still, and the run's own changes are not committed yet): every listing the dump left out is among those it
/// finds, and a listing the run changed that is among them the withdrawal leaves out as always (it is staged).
/// Finding them scans the source's on-market index: at 1M about half a second of a delta's tail, spent here on the
/// core the run's merge leaves idle.
final class WithdrawalSearch: @unchecked Sendable {
    /// The most keys a search hands back: past it the withdrawal looks for them in the run's transaction instead
    /// (`MergeStatements.withdrawUnnamed`), so the keys held stay few whatever the dump left out.
    static let defaultLimit = 100_000

    private let lock = NSLock()
    private var connection: Connection?
    private var abandoned = false
    private let outcome = BlockingFuture<[String]?>()

    /// Starts the search for the on-market listings of `source` whose fingerprint is one of `unmatched` (none: it
    /// finds none at once), at most `limit` of them, on a connection `connect` opens on the search's own thread.
    init(source: String, unmatched: [UInt64], limit: Int = WithdrawalSearch.defaultLimit,
         connect: @escaping @Sendable () throws -> Connection) {
        guard !unmatched.isEmpty else {
            outcome.fulfil([])
            return
        }
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            var keys: [String]?
            do {
                let connection = try connect()
                let go = lock.withLock {
                    self.connection = connection
                    return !abandoned
                }
                if go {
                    keys = try WithdrawalSearch.find(connection, source: source, unmatched: unmatched, limit: limit)
                }
            } catch {
                keys = nil
            }
            outcome.fulfil(keys)
        }
    }

    /// The keys found, waiting for the search to end; nil when it failed or found more than its limit (the
    /// withdrawal then looks for them itself). Bounded: the connection's timeouts and the run's stop end it.
    func keys() -> [String]? {
        outcome.value
    }

    /// Ends a search no longer needed: cancels its statement if one runs (an idle connection only refuses the
    /// next) and waits for it to stop.
    func abandon() {
        lock.withLock {
            abandoned = true
            return connection
        }?.cancel(refusingLater: true)
        _ = outcome.value
    }

    /// Copies fingerprints into a new temporary `unmatched_listings`, analyzed; dropped at the transaction's end
    /// when `untilCommit`, else at the connection's.
    static func sendUnmatched(_ hashes: [UInt64], to connection: Connection, untilCommit: Bool) throws {
        try connection.execute("CREATE TEMP TABLE unmatched_listings (raw_hash bigint NOT NULL)"
            + (untilCommit ? " ON COMMIT DROP" : ""))
        _ = try connection.copyIn("COPY unmatched_listings (raw_hash) FROM STDIN") { writer in
            for hash in hashes {
                writer.field(String(Int64(bitPattern: hash)))
                try writer.endRow()
            }
        }
        try connection.execute("ANALYZE unmatched_listings")
    }

    /// The search itself; nil past `limit` keys.
    private static func find(_ connection: Connection, source: String, unmatched: [UInt64], limit: Int) throws
        -> [String]? {
        try sendUnmatched(unmatched, to: connection, untilCommit: false)
        let found = try connection.execute("""
            SELECT o.listing_id FROM listings o JOIN unmatched_listings u ON u.raw_hash = o.raw_hash
            WHERE o.source = $1 AND o.off_market_at IS NULL
            LIMIT $2
            """, [source, String(limit + 1)])
        guard found.rows.count <= limit else { return nil }
        return found.rows.compactMap { $0[0] }
    }
}
