import Foundation
import EmbeddedPostgres
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
        try cluster.start()
        return try cluster.createDatabaseIfMissing(Self.embeddedDatabase)
    }

    /// A connection for the commands that read or prune the ledger (`runs`, `history`, `rejects`, `prune`): the
    /// configured database, or the embedded cluster when it runs. It creates, starts and migrates nothing; a schema
    /// older than this build is an error naming `mlsfeed db migrate`. For a command that `writes`, a hot standby
    /// is refused before anything else (`ReadOnlyStandby`); the others read from one as from its primary.
    func ledgerConnection(flag: String?, writes: Bool = false) throws -> Connection {
        let conninfo: String
        if let explicit = project.resolvedDatabase(flag: flag, environment: environment) {
            conninfo = explicit
        } else {
            guard cluster.isRunning else {
                throw LoadError("the embedded PostgreSQL under \(project.dataDirectory) is not running; start it "
                    + "with `mlsfeed db start` (a run starts it too)", kind: .busy)
            }
            conninfo = cluster.conninfo(database: Self.embeddedDatabase)
        }
        let connection = try Connection(conninfo, options: project.timeouts)
        if writes { try ReadOnlyStandby.refuse(connection) }
        try Migrations.requireCurrent(connection)
        return connection
    }

    /// The embedded cluster's database that mlsfeed loads into.
    static let embeddedDatabase = "mlsfeed"
}
