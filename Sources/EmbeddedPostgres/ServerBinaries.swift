import Foundation

/// Where the PostgreSQL server programs (`initdb`, `pg_ctl`) are installed.
struct ServerBinaries: Sendable {
    let directory: String

    var initdb: String { directory + "/initdb" }
    var pgCtl: String { directory + "/pg_ctl" }
    var pgBasebackup: String { directory + "/pg_basebackup" }

    /// Finds the newest `/usr/lib/postgresql/<version>/bin`, else `pg_config --bindir`, else `PATH`.
    static func locate() throws -> ServerBinaries {
        let fileManager = FileManager.default
        func usable(_ directory: String) -> Bool {
            fileManager.isExecutableFile(atPath: directory + "/initdb")
                && fileManager.isExecutableFile(atPath: directory + "/pg_ctl")
        }
        let root = "/usr/lib/postgresql"
        let versions = ((try? fileManager.contentsOfDirectory(atPath: root)) ?? [])
            .compactMap { name in Double(name).map { (name, $0) } }
            .sorted { $0.1 > $1.1 }
        for (name, _) in versions where usable("\(root)/\(name)/bin") {
            return ServerBinaries(directory: "\(root)/\(name)/bin")
        }
        if let bindir = pgConfigBindir(), usable(bindir) {
            return ServerBinaries(directory: bindir)
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":").map(String.init) where usable(directory) {
            return ServerBinaries(directory: directory)
        }
        throw LocalClusterError(
            "PostgreSQL server programs (initdb, pg_ctl) not found in /usr/lib/postgresql/*/bin, "
                + "pg_config --bindir or PATH: install them with `apt-get install postgresql`")
    }

    private static func pgConfigBindir() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard let pgConfig = path.split(separator: ":").map({ "\($0)/pg_config" })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        guard let result = try? Subprocess.run(pgConfig, ["--bindir"], directory: "/",
                                               environment: ProcessInfo.processInfo.environment),
              result.exitCode == 0 else { return nil }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
