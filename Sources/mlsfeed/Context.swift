import Foundation
import EmbeddedPostgres
import MLSFeed

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
        try cluster.start()
        return try cluster.createDatabaseIfMissing(Self.embeddedDatabase)
    }

    /// The embedded cluster's database that mlsfeed loads into.
    static let embeddedDatabase = "mlsfeed"
}
