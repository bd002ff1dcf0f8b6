import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program to completion with `posix_spawn` + `waitpid`, capturing its output in a file.
///
/// Not Foundation's `Process`: that one learns of the child's exit from a socket the child inherits, and a
/// server daemonized by `pg_ctl start` inherits it too and keeps it open forever. Here a `bash` trampoline
/// closes every descriptor above 2 in the child before `exec`, so no daemon keeps anything of ours open.
enum Subprocess {
    private static let trampoline = """
        cd "$1" || exit 126; out=$2; shift 2
        for fd in /proc/self/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done 2>/dev/null
        exec "$@" >"$out" 2>&1 </dev/null
        """

    /// Runs `executable` with `arguments` in `directory`; returns its exit code (128 + signal when killed)
    /// and its combined standard output and error.
    static func run(_ executable: String, _ arguments: [String], directory: String,
                    environment: [String: String]) throws -> (exitCode: Int32, output: String) {
        let outputPath = NSTemporaryDirectory() + "mlsfeed-spawn-\(getpid())-\(UUID().uuidString).out"
        defer { unlink(outputPath) }
        let argv = ["/bin/bash", "-c", trampoline, "mlsfeed-spawn", directory, outputPath, executable] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnvp = envp.map { strdup($0) } + [nil]
        defer {
            cArgv.forEach { free($0) }
            cEnvp.forEach { free($0) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, "/bin/bash", nil, nil, cArgv, cEnvp)
        guard spawned == 0 else {
            throw LocalClusterError("could not run \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else {
                throw LocalClusterError("could not wait for \(executable): \(String(cString: strerror(errno)))")
            }
        }
        let exitCode = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return (exitCode, output)
    }
}
