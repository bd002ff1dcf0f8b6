import Dispatch
import Foundation
import MLSFeed

/// The progress line on a terminal's stderr: redrawn at most 4 times a second from `PipelineRunner.progress`,
/// bytes of the total with percent, records and records/s, and an ETA for files; pages and records for paged HTTP.
/// With several pipelines, one line for all of them (`combined`).
final class ProgressLine: @unchecked Sendable {
    /// Made by `start` (a timer source must not be released without having been resumed).
    private var timer: DispatchSourceTimer?
    /// What to draw now; nil draws nothing.
    private var text: (@Sendable () -> String?)?
    private var shown = false

    /// Starts redrawing the progress of `runner`'s runs.
    func start(_ runner: PipelineRunner) {
        start { runner.progress.map(Self.line) }
    }

    /// Starts redrawing what `text` says each time.
    func start(_ text: @escaping @Sendable () -> String?) {
        lock.withLock { self.text = text }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "mlsfeed.progress"))
        timer.schedule(deadline: .now() + 0.25, repeating: 0.25)
        timer.setEventHandler { [weak self] in self?.draw() }
        timer.resume()
        self.timer = timer
    }

    /// Stops redrawing and clears the line.
    func stop() {
        timer?.cancel()
        clear()
    }

    /// Clears the line (before other output), to be redrawn at the next tick.
    func clear() {
        lock.withLock {
            if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            shown = false
        }
    }

    private let lock = NSLock()

    private func draw() {
        guard let line = lock.withLock({ text })?() else { return }
        lock.withLock {
            shown = true
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
        }
    }

    /// The line of a several-pipeline run: how many pipelines are done, then each running one's progress (in full
    /// when it runs alone, its share and records when several do; `starting` before its first unit reads):
    /// `2 of 5 pipelines done; sdmls: 45%, 10,234 records; crmls: starting`.
    static func combined(done: Int, total: Int, running: [(name: String, progress: RunProgress?)]) -> String {
        var parts = ["\(done) of \(total) pipelines done"]
        for (name, progress) in running {
            guard let progress else {
                parts.append("\(name): starting")
                continue
            }
            parts.append("\(name): " + (running.count == 1 ? line(progress) : short(progress)))
        }
        return parts.joined(separator: "; ")
    }

    /// `45%, 10,234 records`, or `10,234 records` without a known size.
    static func short(_ progress: RunProgress) -> String {
        var text = "\(grouped(progress.records)) records"
        if let total = progress.totalBytes, total > 0 {
            let share = min(1, Double(progress.bytes) / Double(total))
            text = String(format: "%.0f%%, ", share * 100) + text
        }
        return text
    }

    /// `12.3 of 117.0 MB (10%), 10,234 records (31,012/s), ETA 0:12` or `page 3, 1,500 records (750/s)`.
    static func line(_ progress: RunProgress) -> String {
        let rate = progress.seconds > 0 ? Double(progress.records) / progress.seconds : 0
        var parts: [String] = []
        if let total = progress.totalBytes, total > 0 {
            let share = min(1, Double(progress.bytes) / Double(total))
            parts.append(String(format: "%.1f of %.1f MB (%.0f%%)", Double(progress.bytes) / 1e6, Double(total) / 1e6,
                                share * 100))
        } else if progress.documents > 0 {
            parts.append("page \(progress.documents + 1)")
        } else {
            parts.append(String(format: "%.1f MB", Double(progress.bytes) / 1e6))
        }
        parts.append("\(grouped(progress.records)) records (\(grouped(Int(rate)))/s)")
        if progress.rejected > 0 { parts.append("\(grouped(progress.rejected)) rejected") }
        if let total = progress.totalBytes, total > 0, progress.bytes > 0, progress.bytes < total {
            let remaining = progress.seconds * Double(total - progress.bytes) / Double(progress.bytes)
            parts.append(String(format: "ETA %d:%02d", Int(remaining) / 60, Int(remaining) % 60))
        }
        return parts.joined(separator: ", ")
    }

    private static func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(d)
        }
        return out
    }
}
