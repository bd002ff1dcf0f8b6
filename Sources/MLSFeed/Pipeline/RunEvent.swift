import Foundation
import Postgres

/// Something a run did that an operator may want to see as it happens: run started, input opened, page fetched,
/// retry, waiting for a lock, stage finished, warning, run finished. Rendered by the CLI as a readable line or a
/// JSON line (`log_format`); every text in it has been through the run's redactor.
package struct RunEvent: Sendable, Equatable {
    package enum Level: String, Sendable { case info, warning, error }

    /// `run.started`, `input.opened`, `page.fetched`, `http.retry`, `lock.wait`, `stage.finished`, `warning`,
    /// `run.finished`.
    package var name: String
    package var level: Level
    /// UTC, ISO 8601 with milliseconds.
    package var time: String
    package var pipeline: String
    package var source: String
    package var runID: Int64?
    /// A one-line description (what the text log prints).
    package var message: String
    /// Structured details, in order (numbers as their text).
    package var fields: [(key: String, value: String)]

    package static func == (lhs: RunEvent, rhs: RunEvent) -> Bool {
        lhs.name == rhs.name && lhs.level == rhs.level && lhs.time == rhs.time && lhs.message == rhs.message
            && lhs.runID == rhs.runID && lhs.fields.map(\.key) == rhs.fields.map(\.key)
            && lhs.fields.map(\.value) == rhs.fields.map(\.value)
    }

    /// The event as one JSON object (a line of `log_format: json`).
    package var json: String {
        var members: [(String, String)] = [("ts", JSONText.string(time)), ("level", JSONText.string(level.rawValue)),
                                           ("event", JSONText.string(name)),
                                           ("run_id", runID.map(String.init) ?? "null"),
                                           ("pipeline", JSONText.string(pipeline)),
                                           ("source", JSONText.string(source)),
                                           ("message", JSONText.string(message))]
        for (key, value) in fields { members.append((key, JSONText.string(value))) }
        return "{" + members.map { "\(JSONText.string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// The event as a readable line (`log_format: text`).
    package var text: String {
        let run = runID.map { " run \($0)" } ?? ""
        return "\(time) \(level.rawValue) \(pipeline)\(run): \(message)"
    }

    /// Now, as events stamp it.
    static func now() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date())
    }
}

/// Where a run's events go (the CLI's log), with every text passed through the redactor first.
struct RunLog: Sendable {
    let pipeline: String
    let source: String
    let redactor: Redactor
    let sink: (@Sendable (RunEvent) -> Void)?

    /// Emits an event (no-op without a sink).
    func emit(_ name: String, _ level: RunEvent.Level = .info, run: Int64?, _ message: String,
              _ fields: [(key: String, value: String)] = []) {
        guard let sink else { return }
        let clean: (String) -> String = { Redactor.scrub(redactor.redact($0)) }
        sink(RunEvent(name: name, level: level, time: RunEvent.now(), pipeline: pipeline, source: source,
                      runID: run, message: clean(message), fields: fields.map { ($0.key, clean($0.value)) }))
    }
}
