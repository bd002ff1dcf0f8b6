import Foundation
import Postgres

/// A source's hourly and daily request budgets, counted in the database (`request_budgets`) so they hold across
/// runs: each request is counted as it is made, on a connection of its own, whatever becomes of the run.
final class DatabaseRequestBudget: RequestBudget {
    private let connection: Connection
    private let source: String
    private let limits: WebAPISettings.RateLimit

    init(connection: Connection, source: String, limits: WebAPISettings.RateLimit) {
        self.connection = connection
        self.source = source
        self.limits = limits
    }

    func admit() throws {
        guard limits.perHour != nil || limits.perDay != nil else { return }
        try connection.transaction {
            // Runs of several pipelines may share a source's budget: one of them counts at a time.
            try connection.execute("SELECT pg_advisory_xact_lock(hashtext('mlsfeed budget ' || $1))", [source])
            let row = try connection.execute("""
                WITH w AS (SELECT date_trunc('hour', now()) AS h,
                                  date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS d)
                SELECT coalesce((SELECT requests FROM request_budgets, w
                                 WHERE source = $1 AND span = 'hour' AND window_start = w.h), 0),
                       coalesce((SELECT requests FROM request_budgets, w
                                 WHERE source = $1 AND span = 'day' AND window_start = w.d), 0),
                       to_char((w.h + interval '1 hour') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                       to_char((w.d + interval '1 day') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
                FROM w
                """, [source]).rows.first ?? []
            let hour = Int(row.first.flatMap { $0 } ?? "") ?? 0
            let day = Int(row.count > 1 ? row[1] ?? "" : "") ?? 0
            if let perHour = limits.perHour, hour + 1 > perHour {
                throw RequestBudgetPause(until: row.count > 2 ? row[2] ?? "" : "",
                                         budget: "\(perHour) requests per hour")
            }
            if let perDay = limits.perDay, day + 1 > perDay {
                throw RequestBudgetPause(until: row.count > 3 ? row[3] ?? "" : "", budget: "\(perDay) requests per day")
            }
            try connection.execute("""
                INSERT INTO request_budgets (source, span, window_start, requests)
                VALUES ($1, 'hour', date_trunc('hour', now()), 1),
                       ($1, 'day', date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', 1)
                ON CONFLICT (source, span, window_start) DO UPDATE SET requests = request_budgets.requests + 1
                """, [source])
        }
    }
}
