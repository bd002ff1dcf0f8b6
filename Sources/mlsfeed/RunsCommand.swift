import Foundation
import MLSFeed
import Postgres

/// `mlsfeed runs`: the run ledger, newest first.
enum RunsCommand {
    static func main(_ args: [String]) throws -> Int32 {
        let parsed = try Arguments(args, options: ["pipeline", "limit", "database", "config"], flags: ["help"])
        if parsed.has("help") {
            print(commandUsage["runs"]!)
            return 0
        }
        let limit = try parsed["limit"].map { text -> Int in
            guard let n = Int(text), n > 0 else { throw UsageError(message: "--limit must be a positive integer") }
            return n
        } ?? 20
        let context = try Context(configFlag: parsed["config"])
        let connection = try Connection(try context.conninfo(flag: parsed["database"]))
        _ = try Migrations.apply(connection)
        let result = try connection.execute("""
            SELECT id, pipeline, source, status, mode, to_char(started_at, 'YYYY-MM-DD HH24:MI:SS'),
                   round(extract(epoch FROM (finished_at - started_at))::numeric, 2),
                   read, rejected, duplicates, inserted, updated, unchanged, withdrawn, coalesce(error, '')
            FROM ingest_runs WHERE ($1::text IS NULL OR pipeline = $1)
            ORDER BY id DESC LIMIT $2
            """, [parsed["pipeline"], String(limit)])
        let header = ["id", "pipeline", "source", "status", "mode", "started", "seconds", "read", "rejected",
                      "dupes", "inserted", "updated", "unchanged", "withdrawn", "error"]
        let rows = result.rows.map { $0.map { $0 ?? "" } }
        print(table(header: header, rows: rows))
        return 0
    }

    static func table(header: [String], rows: [[String]]) -> String {
        var widths = header.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], min(cell.count, 60)) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                String(cell.prefix(60)).padding(toLength: widths[i], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }
}
