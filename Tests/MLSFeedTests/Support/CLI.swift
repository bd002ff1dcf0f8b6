import Foundation

/// Runs the built `mlsfeed` executable (it sits beside the test bundle in `.build/<config>/`).
enum CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var binary: URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On Linux the test runner is .build/debug/mlsfeedPackageTests.xctest; the tool is beside it.
        if dir.lastPathComponent.hasSuffix(".xctest") { dir = dir.deletingLastPathComponent() }
        return dir.appendingPathComponent("mlsfeed")
    }

    /// The package root, where `pipelines/` and `config.yaml` live.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../..").standardizedFileURL

    static func run(_ arguments: [String], in directory: URL = packageRoot, environment: [String: String] = [:],
                    stdin: Data? = nil) throws -> Result {
        try run(program: binary, arguments, in: directory, environment: environment, stdin: stdin)
    }

    /// This process's environment without the variables that would point the tool at another database or config,
    /// plus `environment`.
    static func childEnvironment(_ environment: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for key in ["MLSFEED_DATABASE_URL", "PGHOST", "PGDATABASE", "MLSFEED_CONFIG"] { env[key] = nil }
        env.merge(environment) { $1 }
        return env
    }

    /// Runs another program (a shell, groff) the same way, in the package root by default.
    static func run(program: URL, _ arguments: [String], in directory: URL = packageRoot,
                    environment: [String: String] = [:], stdin: Data? = nil) throws -> Result {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = childEnvironment(environment)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // Read both pipes concurrently so a chatty child never blocks on a full pipe.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
