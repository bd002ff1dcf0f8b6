import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `mlsfeed` as a child of its own and reads its peak resident memory from the kernel (`wait4`'s
/// `ru_maxrss`): Foundation's `Process` reaps its children itself, and with them their usage.
enum PeakMemory {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// The child's peak resident set, in KiB.
        var peakKiB: Int
    }

    /// `mlsfeed arguments` (paths absolute), standard input on `/dev/null`.
    static func run(_ arguments: [String]) throws -> Result {
        let output = NSTemporaryDirectory() + "peak-\(UUID().uuidString).out"
        let errors = output + ".err"
        defer {
            try? FileManager.default.removeItem(atPath: output)
            try? FileManager.default.removeItem(atPath: errors)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var environment = ProcessInfo.processInfo.environment
        for key in ["MLSFEED_DATABASE_URL", "PGHOST", "PGDATABASE", "MLSFEED_CONFIG"] { environment[key] = nil }
        let argv = ([CLI.binary.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, CLI.binary.path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
        // Exited: the code in the second byte; killed: 128 + the signal, as a shell reports it.
        let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + status & 0x7F
        return Result(status: code, stdout: (try? String(contentsOfFile: output, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "", peakKiB: usage.ru_maxrss)
    }
}
