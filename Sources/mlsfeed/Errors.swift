import EmbeddedPostgres
import Foundation
import MLSFeed
import Postgres
import YAMLConfig

/// The text printed for an error: compiler-style where the error has a position, never a password.
func describe(_ error: Error) -> String {
    let text: String
    switch error {
    case let error as ConfigError: text = error.description
    case let error as InputError: text = error.description
    case let error as PostgresError: text = "error: \(error.report)"
    case let error as LocalClusterError: text = "error: embedded PostgreSQL: \(error.message)"
    case let error as LoadError: text = "error: \(error.message)"
    case let error as CustomStringConvertible: text = error.description
    default: text = "error: \(error)"
    }
    return Redactor.scrub(text)
}

/// The exit code of an error that stopped a command before or outside a run: 2 for configuration and usage
/// mistakes (a write pointed at a hot standby is one), otherwise the code of the kind of failure it is (see
/// `exitCode(for:signal:)`).
func exitCode(for error: Error) -> Int32 {
    switch error {
    case is ConfigError, is UsageError, is ReadOnlyStandby: return 2
    default: return exitCode(for: RunSummary.Failure(of: error), signal: nil)
    }
}

/// The exit-code table schedulers rely on: 1 the run failed (bad input), 2 the database refused the configured role
/// (login or privilege), 3 a safety rule refused it, 4 the database, network or disk is unavailable (worth a
/// retry), 130 or 143 interrupted by SIGINT or SIGTERM.
func exitCode(for failure: RunSummary.Failure, signal: Int32?) -> Int32 {
    switch failure {
    case .input: return 1
    case .configuration: return 2
    case .refused: return 3
    case .unavailable: return 4
    case .interrupted: return signal == SIGTERM ? 143 : 130
    }
}
