import Dispatch
import Foundation
import Postgres

/// Says what a run waits for when one of its statements waits for a lock another session holds: every couple of
/// seconds it asks the server (on a connection of its own, opened on the first look) whether the run's backends
/// wait on a lock, and reports each blocking session once, naming it. The wait for the source's advisory lock is
/// left out: the session says itself which run holds the source.
final class LockWatch: @unchecked Sendable {
    private let conninfo: String
    private let options: ConnectionOptions
    private let report: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "mlsfeed.load.lock-watch")
    private let timer: DispatchSourceTimer
    // Touched on `queue` only.
    private var connection: Connection?
    private var watched: [(weak: WeakConnection, pid: Int32)] = []
    private var reported: Set<Int32> = []
    private var broken = false

    init(conninfo: String, options: ConnectionOptions, every seconds: Double = 2,
         report: @escaping @Sendable (String) -> Void) {
        self.conninfo = conninfo
        self.options = options
        self.report = report
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + seconds, repeating: seconds)
        timer.setEventHandler { [weak self] in self?.look() }
        timer.resume()
    }

    deinit {
        timer.cancel()
    }

    /// Watches the backend serving `connection` too, while `connection` is open (held weakly: a closed
    /// connection's process id could come to name another session's backend).
    func watch(_ connection: Connection) {
        let pid = connection.backendPID
        let held = WeakConnection(connection)
        queue.async { self.watched.append((held, pid)) }
    }

    /// Stops watching and closes the watch's connection.
    func stop() {
        timer.cancel()
        queue.sync { connection = nil }
    }

    private func look() {
        watched.removeAll { $0.weak.isClosed }
        let pids = watched.map(\.pid)
        guard !pids.isEmpty, !broken else { return }
        do {
            if connection == nil {
                var quick = options
                quick.connectTimeout = min(options.connectTimeout, 5)
                quick.lockTimeout = 5
                quick.statementTimeout = 5
                connection = try Connection(conninfo, options: quick)
            }
            let waits = try connection!.execute("""
                SELECT w.pid, b.pid, coalesce(nullif(b.application_name, ''), 'no application name'), b.state,
                       to_char(b.xact_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                       coalesce((SELECT l.relation::regclass::text FROM pg_locks l
                                 WHERE l.pid = w.pid AND NOT l.granted AND l.relation IS NOT NULL LIMIT 1),
                                w.wait_event)
                FROM pg_stat_activity w
                CROSS JOIN LATERAL unnest(pg_blocking_pids(w.pid)) AS blocker(pid)
                JOIN pg_stat_activity b ON b.pid = blocker.pid
                WHERE w.pid = ANY($1::int[]) AND w.wait_event_type = 'Lock' AND w.wait_event <> 'advisory'
                """, ["{" + pids.map(String.init).joined(separator: ",") + "}"])
            for row in waits.rows {
                guard let blocker = row[1].flatMap({ Int32($0) }), reported.insert(blocker).inserted else { continue }
                let since = row[4].map { ", in a transaction since \($0)" } ?? ""
                let wait = options.lockTimeout > 0
                    ? "it waits up to \(Int(options.lockTimeout)) s (timeouts.lock)" : "it waits without a limit"
                report("waiting for a lock on \(row[5] ?? "a table") held by PostgreSQL process \(blocker) "
                    + "(\(row[2] ?? ""), \(row[3] ?? "state unknown")\(since)); \(wait)")
            }
        } catch {
            // Watching is a courtesy: a watch that cannot look gives up quietly.
            broken = true
            connection = nil
        }
    }
}
