import Foundation

/// A started `mlsfeed` process whose standard output and error are read as they come, so a test can wait for a line
/// before it acts.
final class RunningProcess: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()
    private let readers = DispatchGroup()

    init(_ arguments: [String], directory: URL, environment: [String: String]) throws {
        process.executableURL = CLI.binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = CLI.childEnvironment(environment)
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        for (pipe, isError) in [(outPipe, false), (errPipe, true)] {
            DispatchQueue.global().async(group: readers) { [self] in
                while true {
                    let data = pipe.fileHandleForReading.availableData
                    if data.isEmpty { break }
                    lock.withLock { if isError { err.append(data) } else { out.append(data) } }
                }
            }
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Standard error so far.
    var stderr: String {
        lock.withLock { String(decoding: err, as: UTF8.self) }
    }

    /// Waits until standard error holds a match of `pattern` (a regular expression); the match.
    @discardableResult
    func waitForStderr(matching pattern: String) throws -> String {
        let regex = try NSRegularExpression(pattern: pattern)
        var found = ""
        try JobsFeeds.waitUntil("stderr matches \(pattern); it was: \(stderr)") {
            let text = stderr
            guard let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                  let range = Range(match.range, in: text) else {
                guard process.isRunning else {
                    throw JobsFeeds.WaitFailure(description: "the process ended (\(process.terminationStatus)) "
                        + "before its stderr matched \(pattern): \(text)")
                }
                return false
            }
            found = String(text[range])
            return true
        }
        return found
    }

    /// Sends `signal`.
    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Waits for the process to end (at most ten minutes); its exit status and output.
    func wait() -> CLI.Result {
        let deadline = Date().addingTimeInterval(600)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        readers.wait()
        return lock.withLock {
            CLI.Result(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                       stderr: String(decoding: err, as: UTF8.self))
        }
    }
}
