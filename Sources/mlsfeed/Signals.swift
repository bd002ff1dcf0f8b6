import Dispatch
import Foundation

/// SIGINT and SIGTERM for the whole command: the first one stops the work in hand (a run rolls back and records
/// itself `interrupted`), or ends the process at once when nothing is registered to stop; a second one always ends
/// the process at once. The exit code is 130 for SIGINT and 143 for SIGTERM.
final class Signals: @unchecked Sendable {
    static let shared = Signals()

    private let lock = NSLock()
    private var sources: [DispatchSourceSignal] = []
    private var received: Int32?
    private var stop: (@Sendable () -> Void)?

    /// Takes over SIGINT and SIGTERM (once per process).
    func install() {
        lock.withLock {
            guard sources.isEmpty else { return }
            sources = [SIGINT, SIGTERM].map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [unowned self] in self.receive(number) }
                source.resume()
                return source
            }
        }
    }

    /// The first signal received, if any.
    var first: Int32? { lock.withLock { received } }

    /// Runs `body` with `stop` as what the first signal does; outside it, a signal ends the process.
    func whileRunning<T>(stop: @escaping @Sendable () -> Void, _ body: () throws -> T) rethrows -> T {
        lock.withLock { self.stop = stop }
        defer { lock.withLock { self.stop = nil } }
        return try body()
    }

    /// The exit code a signal gives.
    static func exitCode(for signal: Int32) -> Int32 {
        signal == SIGTERM ? 143 : 130
    }

    private func receive(_ number: Int32) {
        let (first, action): (Bool, (@Sendable () -> Void)?) = lock.withLock {
            let first = received == nil
            if first { received = number }
            return (first, stop)
        }
        guard first, let action else {
            FileHandle.standardError.write(Data("mlsfeed: stopped by signal \(number)\n".utf8))
            _exit(Self.exitCode(for: number))
        }
        FileHandle.standardError.write(Data("mlsfeed: stopping (signal \(number)); send it again to quit at once\n"
            .utf8))
        action()
    }
}
