import Foundation
import MLSFeed

/// `--summary-json PATH`: checked writable before anything runs and replaced at once by a `running` summary, then
/// written atomically (a temporary file beside it, renamed over it) on every way out, failures included. So a
/// stale summary never survives a run: one that dies without a way out (a crash, SIGKILL) leaves `running`, never
/// the last run's result.
struct SummaryFile {
    let path: String

    /// Checks that a file can be created in `path`'s directory (a usage error names the path and the reason), and
    /// writes the `running` summary there.
    init(path: String) throws {
        self.path = path
        let probe = Self.temporaryPath(for: path)
        guard FileManager.default.createFile(atPath: probe, contents: nil) else {
            let reason = String(cString: strerror(errno))
            throw UsageError(message: "--summary-json \(path): cannot write there (\(reason))")
        }
        try? FileManager.default.removeItem(atPath: probe)
        try write(Self.running(pid: getpid(), startedAt: Date()))
    }

    /// What the file holds while the command runs: `{"status":"running","pid":N,"started_at":"..."}`.
    static func running(pid: Int32, startedAt: Date) -> String {
        let started = ISO8601DateFormatter().string(from: startedAt)
        return "{\"status\":\"running\",\"pid\":\(pid),\"started_at\":\(JSONText.string(started))}\n"
    }

    /// The summaries of the units run: one object for one unit, an array for several (always with `array`: the
    /// units of several pipelines).
    func write(_ summaries: [RunSummary], array: Bool = false) throws {
        let json = summaries.count == 1 && !array
            ? summaries[0].json : "[" + summaries.map { $0.json.dropLast() }.joined(separator: ",") + "]\n"
        try write(json)
    }

    /// A failure before or outside any run: its kind, the exit code and the error.
    func write(failure: String, exitCode: Int32, error: String) throws {
        try write("{\"status\":\"failed\",\"failure\":\(JSONText.string(failure)),\"exit_code\":\(exitCode),"
            + "\"error\":\(JSONText.string(error))}\n")
    }

    private func write(_ text: String) throws {
        let temporary = Self.temporaryPath(for: path)
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else {
                throw UsageError(message: "--summary-json \(path): \(String(cString: strerror(errno)))")
            }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }

    private static func temporaryPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
    }
}
