import EmbeddedPostgres
import Foundation
import MLSFeed
import Postgres

/// `mlsfeed doctor [PIPELINE]`: checks what a run needs, one line per check with a fix; exit 0 only when every
/// check is ok. It reads only: it creates, starts and migrates nothing.
enum DoctorCommand {
    /// Free space below which the disk check fails, and below which it warns.
    static let failBelow: Int64 = 1 << 30
    static let warnBelow: Int64 = 5 << 30

    static func main(_ args: [String]) throws -> Int32 {
        let parsed = try Arguments(args, command: CommandHelp.doctor)
        guard parsed.positionals.count <= 1 else { throw UsageError(message: "expected at most one PIPELINE") }
        if parsed["input"] != nil && parsed.positionals.isEmpty {
            throw UsageError(message: "--input needs a PIPELINE to read it with")
        }
        var checks: [DoctorCheck] = []
        func report(_ check: DoctorCheck) {
            checks.append(check)
            print(check.text)
        }

        let context: Context
        do {
            context = try Context(configFlag: parsed["config"])
            report(DoctorCheck(name: "config", status: .ok, detail: configDetail(context, flag: parsed["database"])))
        } catch {
            report(DoctorCheck(name: "config", status: .fail, detail: describe(error),
                               fix: "correct the config file at the place shown (or pass --config PATH)"))
            let rest = ["pipeline", "database", "disk"]
            for name in rest { report(skipped(name, because: "the config is not valid")) }
            return 1
        }
        if let name = parsed.positionals.first {
            for check in pipeline(name, context: context, input: parsed["input"]) { report(check) }
        }
        for check in database(context, flag: parsed["database"], forRun: !parsed.positionals.isEmpty) {
            report(check)
        }
        report(disk(context.project.dataDirectory))
        return checks.allSatisfy { $0.status == .ok } ? 0 : 1
    }

    private static func skipped(_ name: String, because reason: String) -> DoctorCheck {
        DoctorCheck(name: name, status: .skip, detail: "not checked: \(reason)")
    }

    private static func configDetail(_ context: Context, flag: String?) -> String {
        let file = context.configPath ?? "no config file (built-in defaults)"
        let database = context.project.resolvedDatabase(flag: flag, environment: context.environment)
            .map { $0.isEmpty ? "libpq environment" : Redactor.scrub($0) } ?? "embedded"
        return "\(file): database \(database), data_dir \(context.project.dataDirectory)"
    }

    /// The pipeline file with its mapping, then its input.
    private static func pipeline(_ name: String, context: Context, input: String?) -> [DoctorCheck] {
        let config: PipelineConfig
        let path: String
        do {
            path = try RunCommand.locatePipeline(name)
            config = try PipelineConfig.load(path: path, project: context.project, environment: context.environment)
        } catch {
            return [DoctorCheck(name: "pipeline", status: .fail, detail: describe(error),
                                fix: "correct the pipeline file at the place shown; `mlsfeed validate \(name)` "
                                    + "checks it alone"),
                    skipped("input", because: "the pipeline is not valid")]
        }
        return [DoctorCheck(name: "pipeline", status: .ok,
                            detail: "\(path): \(config.name), source \(config.source), mode \(config.mode.rawValue)"),
                self.input(input ?? config.input, order: config.order)]
    }

    /// Whether the pipeline's input can be read now: every file of a path, glob or directory opens.
    private static func input(_ spec: String?, order: InputLocator.Order) -> DoctorCheck {
        guard let spec else {
            return DoctorCheck(name: "input", status: .warn, detail: "the pipeline has no source.input",
                               fix: "set source.input, or pass --input PATH to every run")
        }
        if spec == "-" { return DoctorCheck(name: "input", status: .ok, detail: "standard input") }
        if InputLocator.isURL(spec) {
            return DoctorCheck(name: "input", status: .ok,
                               detail: "\(Redactor.redactURL(spec)): HTTP, not fetched by doctor")
        }
        let files: [InputFile]
        do {
            files = try InputLocator.resolve(spec, order: order)
        } catch {
            return DoctorCheck(name: "input", status: .fail, detail: describe(error),
                               fix: "check source.input (relative to the pipeline file) or --input")
        }
        for file in files {
            let descriptor = open(file.location, O_RDONLY)
            guard descriptor >= 0 else {
                return DoctorCheck(name: "input", status: .fail,
                                   detail: "\(file.location): \(String(cString: strerror(errno)))",
                                   fix: "let the user running mlsfeed read it")
            }
            close(descriptor)
        }
        let bytes = files.reduce(Int64(0)) { $0 + ($1.bytes ?? 0) }
        let what = files.count == 1 ? files[0].location : "\(spec): \(files.count) files"
        return DoctorCheck(name: "input", status: .ok, detail: "\(what), \(bytes) bytes, readable")
    }

    /// The embedded cluster (when no database is configured), the connection, the schema and the extensions.
    /// A hot standby serves the read-only commands: it is ok, unless `forRun` (a pipeline was named), which it
    /// cannot take.
    private static func database(_ context: Context, flag: String?, forRun: Bool) -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        let conninfo: String
        if let explicit = context.project.resolvedDatabase(flag: flag, environment: context.environment) {
            conninfo = explicit
        } else {
            let cluster = context.cluster
            guard cluster.isRunning else {
                let created = FileManager.default.fileExists(atPath: cluster.directory)
                checks.append(DoctorCheck(
                    name: "embedded", status: .warn,
                    detail: created ? "PostgreSQL under \(cluster.directory) is not running"
                        : "no embedded PostgreSQL under \(cluster.directory) yet",
                    fix: created ? "`mlsfeed db start` (a run starts it too)"
                        : "`mlsfeed db start` or a first run creates it"))
                for name in ["database", "schema", "extensions"] {
                    checks.append(skipped(name, because: "the embedded PostgreSQL is not running"))
                }
                return checks
            }
            checks.append(embedded(cluster))
            conninfo = cluster.conninfo(database: Context.embeddedDatabase)
        }
        var options = context.project.timeouts
        options.connectTimeout = min(options.connectTimeout, 10)
        let facts: DatabaseFacts
        do {
            facts = try DatabaseFacts.read(try Connection(conninfo, options: options))
        } catch {
            checks.append(DoctorCheck(name: "database", status: .fail, detail: describe(error),
                                      fix: "check --database, $MLSFEED_DATABASE_URL, the PG* variables or "
                                          + "`database:` in config.yaml, and that the server is up"))
            checks.append(skipped("schema", because: "the database is not reachable"))
            checks.append(skipped("extensions", because: "the database is not reachable"))
            return checks
        }
        let reachable = "reachable: PostgreSQL \(facts.serverVersion), database \(facts.database)"
        if !facts.isStandby {
            checks.append(DoctorCheck(name: "database", status: .ok, detail: reachable))
        } else if forRun {
            checks.append(DoctorCheck(name: "database", status: .fail,
                                      detail: "\(reachable), a read-only hot standby: a run cannot write to it",
                                      fix: "point --database at the primary (search and the read-only commands "
                                          + "work on the standby)"))
        } else {
            checks.append(DoctorCheck(name: "database", status: .ok,
                                      detail: "\(reachable), a read-only hot standby (search and the read-only "
                                          + "commands; runs and migrations go to the primary)"))
        }
        // A standby's schema and extensions come from its primary.
        let onPrimary = facts.isStandby ? " against the primary, then wait for this standby to replay it" : ""
        let latest = Migrations.latestVersion
        if facts.schemaVersion < latest {
            checks.append(DoctorCheck(name: "schema", status: .fail,
                                      detail: "at version \(facts.schemaVersion), this mlsfeed needs \(latest)",
                                      fix: facts.isStandby ? "run `mlsfeed db migrate`\(onPrimary)"
                                          : "run `mlsfeed db migrate` (a run migrates too)"))
        } else if facts.schemaVersion > latest {
            checks.append(DoctorCheck(name: "schema", status: .warn,
                                      detail: "at version \(facts.schemaVersion), newer than this mlsfeed "
                                          + "(\(latest))", fix: "upgrade mlsfeed to the version that migrated it"))
        } else {
            checks.append(DoctorCheck(name: "schema", status: .ok, detail: "at version \(latest) (current)"))
        }
        let missing = DatabaseFacts.requiredExtensions.filter { facts.installedExtensions[$0] == nil }
        if missing.isEmpty {
            checks.append(DoctorCheck(name: "extensions", status: .ok, detail: DatabaseFacts.requiredExtensions
                .map { "\($0) \(facts.installedExtensions[$0]!)" }.joined(separator: ", ")))
        } else if missing.allSatisfy(facts.availableExtensions.contains) {
            checks.append(DoctorCheck(name: "extensions", status: .fail,
                                      detail: "not installed in \(facts.database): \(missing.joined(separator: ", "))",
                                      fix: facts.schemaVersion < 2 ? "run `mlsfeed db migrate`\(onPrimary)"
                                          : missing.map { "CREATE EXTENSION \($0);" }.joined(separator: " ")
                                              + " (as a superuser\(facts.isStandby ? ", on the primary" : ""))"))
        } else {
            checks.append(DoctorCheck(name: "extensions", status: .fail,
                                      detail: "not available on the server: "
                                          + missing.filter { !facts.availableExtensions.contains($0) }
                                              .joined(separator: ", "),
                                      fix: "install postgresql-contrib on the database server, then "
                                          + "`mlsfeed db migrate`"))
        }
        return checks
    }

    /// A running embedded cluster: its directory private to its owner.
    private static func embedded(_ cluster: LocalCluster) -> DoctorCheck {
        let attributes = try? FileManager.default.attributesOfItem(atPath: cluster.directory)
        let mode = (attributes?[.posixPermissions] as? NSNumber)?.intValue ?? 0
        guard mode & 0o077 == 0 else {
            return DoctorCheck(name: "embedded", status: .warn,
                               detail: "PostgreSQL running under \(cluster.directory), but the directory is mode "
                                   + String(mode, radix: 8) + ", not 700",
                               fix: "`chmod 700 \(cluster.directory)` (the next start fixes it too)")
        }
        return DoctorCheck(name: "embedded", status: .ok, detail: "PostgreSQL running under \(cluster.directory)")
    }

    /// Free space on the file system of the data directory (the embedded cluster, the HTTP spool).
    private static func disk(_ directory: String) -> DoctorCheck {
        var path = directory
        while !FileManager.default.fileExists(atPath: path) && path != "/" && !path.isEmpty {
            path = (path as NSString).deletingLastPathComponent
        }
        guard let attributes = try? FileManager.default.attributesOfFileSystem(forPath: path.isEmpty ? "." : path),
              let free = (attributes[.systemFreeSize] as? NSNumber)?.int64Value,
              let size = (attributes[.systemSize] as? NSNumber)?.int64Value else {
            return DoctorCheck(name: "disk", status: .warn, detail: "cannot read the free space under \(directory)",
                               fix: "check that \(path) exists and is readable")
        }
        let detail = "\(gibibytes(free)) free of \(gibibytes(size)) under \(directory)"
        if free < failBelow {
            return DoctorCheck(name: "disk", status: .fail, detail: detail,
                               fix: "free space there (below 1 GiB a load or the spool may fill the disk)")
        }
        if free < warnBelow {
            return DoctorCheck(name: "disk", status: .warn, detail: detail,
                               fix: "free space there soon (a full load needs about twice the dump's size)")
        }
        return DoctorCheck(name: "disk", status: .ok, detail: detail)
    }

    private static func gibibytes(_ bytes: Int64) -> String {
        String(format: "%.1f GiB", Double(bytes) / Double(1 << 30))
    }
}
