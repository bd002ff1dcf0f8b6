import Foundation
import MLSFeed
import Postgres

/// What every command needs: the environment, the project config, and the database it should use.
struct Context {
    let environment: [String: String]
    let configPath: String?
    let project: ProjectConfig

    /// Loads `--config PATH`, else `$MLSFEED_CONFIG`, else `./config.yaml` when present, else built-in defaults.
    init(configFlag: String?) throws {
        environment = ProcessInfo.processInfo.environment
        let candidate = configFlag ?? environment["MLSFEED_CONFIG"]
        if let candidate {
            guard FileManager.default.fileExists(atPath: candidate) else {
                throw UsageError(message: "config file \(candidate) does not exist")
            }
            configPath = candidate
        } else if FileManager.default.fileExists(atPath: "config.yaml") {
            configPath = "config.yaml"
        } else {
            configPath = nil
        }
        if let configPath {
            project = try ProjectConfig.load(path: configPath, environment: environment)
        } else {
            var defaults = ProjectConfig()
            defaults.dataDirectory = FileManager.default.currentDirectoryPath + "/.mlsfeed"
            project = defaults
        }
    }

    /// The embedded cluster under the data directory.
    var cluster: LocalCluster { LocalCluster(directory: project.dataDirectory + "/postgres") }

    /// The conninfo to load into: an explicit database, or the embedded cluster (started on demand).
    func conninfo(flag: String?) throws -> String {
        if let explicit = project.resolvedDatabase(flag: flag, environment: environment) { return explicit }
        return try embeddedConninfo()
    }

    /// Starts (or reuses) the embedded cluster and makes sure its `mlsfeed` database exists.
    func embeddedConninfo() throws -> String {
        let admin = try cluster.start()
        let connection = try Connection(admin)
        let exists = try connection.execute("SELECT 1 FROM pg_database WHERE datname = $1", ["mlsfeed"])
        if exists.rows.isEmpty {
            do {
                try connection.execute("CREATE DATABASE mlsfeed")
            } catch let error as PostgresError
                        where error.code == .duplicateDatabase || error.code == .uniqueViolation {
                // Created by a concurrent mlsfeed: fine.
            }
        }
        return admin.replacingOccurrences(of: "dbname=postgres", with: "dbname=mlsfeed")
    }
}
