import EmbeddedPostgres
import Foundation
import MLSFeed
import Postgres

/// `mlsfeed db start|stop|status|url|migrate`. `status` and `url` only read: they never create, start or migrate.
enum DBCommand {
    static func main(_ args: [String]) throws -> Int32 {
        let parsed = try Arguments(args, command: CommandHelp.db)
        guard parsed.positionals.count == 1, let action = parsed.positionals.first else {
            throw UsageError(message: "expected one of start, stop, status, url, migrate")
        }
        let context = try Context(configFlag: parsed["config"])
        let cluster = context.cluster
        switch action {
        case "start":
            print("embedded PostgreSQL running: \(try context.embeddedConninfo())")
        case "stop":
            if cluster.isRunning {
                try cluster.stop()
                print("embedded PostgreSQL stopped")
            } else {
                print("embedded PostgreSQL is not running")
            }
        case "status":
            if cluster.isRunning {
                print("embedded PostgreSQL running: \(cluster.conninfo)")
            } else {
                print("embedded PostgreSQL is not running (data directory \(context.project.dataDirectory))")
                return 1
            }
        case "url":
            if let explicit = context.project.resolvedDatabase(flag: parsed["database"],
                                                               environment: context.environment) {
                print(Redactor.scrub(explicit.isEmpty ? "(libpq environment: PGHOST, ...)" : explicit))
            } else {
                print(cluster.conninfo(database: Context.embeddedDatabase))
                if !cluster.isRunning {
                    printError("note: embedded PostgreSQL is not running: start it with `mlsfeed db start`")
                }
            }
        case "migrate":
            let connection = try Connection(try context.conninfo(flag: parsed["database"]))
            let applied = try Migrations.apply(connection)
            print(applied.isEmpty ? "schema is up to date"
                                  : "applied migrations \(applied.map(String.init).joined(separator: ", "))")
        default:
            throw UsageError(message: "unknown db action \(action); expected start, stop, status, url or migrate")
        }
        return 0
    }
}
