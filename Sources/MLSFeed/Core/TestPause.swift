#if MLSFEED_TEST_HOOKS
import Foundation

/// A test-only pause at a named phase of a run, so fault tests hit each phase every time instead of sleeping and
/// hoping: with `MLSFEED_TEST_PAUSE=<phase>` set, the run writes the phase's name to `MLSFEED_TEST_PAUSE_FILE`
/// when it gets there and waits (up to an hour) for a signal. Unset, every call returns at once. With
/// `MLSFEED_TEST_RESUME_FILE` also set, a pause outside the database (`reach(cancellation:)`) ends, and the run goes
/// on, once that file exists: a test holds a run there (its source's lock held) while it makes another process meet
/// it, then lets it finish. Every run of the process that reaches the phase pauses there.
///
/// Compiled only into debug builds (`MLSFEED_TEST_HOOKS`, `Package.swift`): the release binary has neither the
/// hook nor its variables' names, so no environment can make a production run sleep or overwrite a file. A
/// database phase waits inside a statement (`reach(connection:)`, in `Load`), elsewhere on the run's cancellation.
package enum TestPause: String, Sendable, CaseIterable {
    /// After the first input is open, before its first byte is handed on.
    case fetch
    /// After the first batch of records left the parse stage.
    case parse
    /// After the first batch was copied into the run's staging tables.
    case copy
    /// After the first merge made while the parse goes on (a later load, `load.merge_while_parsing`) has written
    /// its rows, inside the run's transaction.
    case earlyMerge
    /// At the start of the merge, inside the run's transaction.
    case merge
    /// Before the indexes dropped for a first load are built again.
    case index
    /// Before the run's ledger row is written in its transaction (the last step before COMMIT).
    case ledger
    /// After COMMIT succeeded, before the run reports.
    case committed

    /// The phase the environment asks to pause at, and where to announce it.
    private static let requested: (phase: TestPause, marker: String?, resume: String?)? = {
        let environment = ProcessInfo.processInfo.environment
        guard let name = environment["MLSFEED_TEST_PAUSE"], let phase = TestPause(rawValue: name) else { return nil }
        return (phase, environment["MLSFEED_TEST_PAUSE_FILE"], environment["MLSFEED_TEST_RESUME_FILE"])
    }()

    /// Whether the environment asks the run to pause at this phase.
    var isRequested: Bool { Self.requested?.phase == self }

    /// Tells the waiting test that the run got here: writes the phase's name to the marker file.
    func announce() {
        if let marker = Self.requested?.marker {
            try? Data(rawValue.utf8).write(to: URL(fileURLWithPath: marker))
        }
    }

    /// Pauses here when asked to, on `cancellation` (or, without one, until a signal ends the process), until the
    /// resume file exists when one is named. Throws what the interrupted wait throws (`CancellationError`).
    package func reach(cancellation: Cancellation? = nil) throws {
        guard isRequested else { return }
        announce()
        let resume = Self.requested?.resume
        let step = resume == nil ? 3600.0 : 0.02
        var waited = 0.0
        while waited < 3600 {
            if let resume, FileManager.default.fileExists(atPath: resume) { return }
            if let cancellation {
                try cancellation.sleep(seconds: step)
            } else {
                Thread.sleep(forTimeInterval: step)
            }
            waited += step
        }
    }
}
#endif
