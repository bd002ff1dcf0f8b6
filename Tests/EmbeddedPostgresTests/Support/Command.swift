import Foundation

/// Runs a program to completion, as another user when asked (`runuser -u USER --`, root only), capturing output.
enum Command {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The built `mlsfeed` executable: beside the test bundle in `.build/<config>/`.
    static var mlsfeed: String {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if directory.lastPathComponent.hasSuffix(".xctest") { directory = directory.deletingLastPathComponent() }
        return directory.appendingPathComponent("mlsfeed").path
    }

    /// Runs `arguments` (the program first) in `directory`, without the database settings of the environment.
    static func run(_ arguments: [String], as user: String? = nil, in directory: String = "/") throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: user == nil ? arguments[0] : "/usr/sbin/runuser")
        process.arguments = user.map { ["-u", $0, "--"] + arguments } ?? Array(arguments.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment
        for key in ["MLSFEED_DATABASE_URL", "MLSFEED_CONFIG", "PGHOST", "PGDATABASE", "PGUSER", "PGPASSWORD",
                    "PGPASSFILE", "PGPORT"] {
            environment[key] = nil
        }
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes at once so a chatty child never blocks on a full pipe.
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errorData = errors.fileHandleForReading.readDataToEndOfFile() }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
                      stderr: String(decoding: errorData, as: UTF8.self))
    }
}
