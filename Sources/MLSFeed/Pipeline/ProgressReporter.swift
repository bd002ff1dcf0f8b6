import Dispatch
import Foundation

/// Prints one progress line to standard error every second: records, rate, bytes of the total.
final class ProgressReporter: @unchecked Sendable {
    private let state: Totals
    private let totalBytes: Int64?
    private let timer: DispatchSourceTimer
    private let started = monotonicSeconds()

    init(state: Totals, inputs: [InputFile]) {
        self.state = state
        let sizes = inputs.compactMap(\.bytes)
        totalBytes = sizes.count == inputs.count ? sizes.reduce(0, +) : nil
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "mlsfeed.progress"))
    }

    func start() {
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [self] in print(line()) }
        timer.resume()
    }

    func stop() {
        timer.cancel()
        print(line() + "\n")
    }

    private func line() -> String {
        let now = state.snapshot
        let elapsed = max(monotonicSeconds() - started, 0.001)
        var text = String(format: "\r%@ records, %.0f/s, %.1f MB", grouped(now.read), Double(now.read) / elapsed,
                          Double(now.bytes) / 1e6)
        if let totalBytes, totalBytes > 0 {
            text += String(format: " of %.1f MB (%.0f%%)", Double(totalBytes) / 1e6,
                           Double(now.bytes) / Double(totalBytes) * 100)
        }
        if now.rejected > 0 { text += ", \(grouped(now.rejected)) rejected" }
        return text
    }

    private func print(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    private func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(d)
        }
        return out
    }
}
