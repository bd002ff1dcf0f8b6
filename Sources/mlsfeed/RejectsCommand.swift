import Foundation
import MLSFeed

/// `mlsfeed rejects`: the rejected records of a run (by default the last succeeded run), with where they were,
/// why, and their raw fields; streamed, so a run with a million rejects prints in flat memory.
enum RejectsCommand {
    static func main(_ args: [String]) throws -> Int32 {
        if args.first == "replay" { return try RejectsReplayCommand.main(Array(args.dropFirst())) }
        let parsed = try Arguments(args, command: CommandHelp.rejects)
        if let unexpected = parsed.positionals.first {
            throw UsageError(message: "unexpected argument \(unexpected)")
        }
        let format = try OutputFormat(parsed["format"], allowed: [.table, .jsonl])
        let runFlag = try parsed["run"].map { try RunsCommand.runID($0, flag: "--run") }
        if runFlag != nil && parsed.has("last") {
            throw UsageError(message: "--run and --last exclude each other")
        }
        if runFlag != nil && parsed["name"] != nil {
            throw UsageError(message: "--name chooses the last run; --run names one already")
        }
        if let reason = parsed["reason"], reason.isEmpty {
            throw UsageError(message: "--reason needs some text to look for")
        }
        let context = try Context(configFlag: parsed["config"])
        let ledger = Ledger(try context.ledgerConnection(flag: parsed["database"]))
        let run: LedgerRun?
        let runID: Int64
        if let runFlag {
            run = try ledger.run(id: runFlag)
            runID = runFlag
        } else {
            guard let last = try ledger.lastSucceededRun(pipeline: parsed["name"]) else {
                throw NotFound(message: "no succeeded run in the ledger"
                               + (parsed["name"].map { " for pipeline \($0)" } ?? ""))
            }
            run = last
            runID = last.id
        }
        let reason = parsed["reason"]
        if format == .table {
            print(run.map { "run \($0.id): pipeline \($0.pipeline), source \($0.source), \($0.status), started "
                + "\(TimeText.local($0.startedAt))" } ?? "run \(runID) (no longer in the ledger)")
        }
        var printer = TablePrinter()
        var replayedBy = Set<Int64>()
        let given = try ledger.rejects(run: runID, reasonContaining: reason) { reject in
            if let run = reject.replayedBy { replayedBy.insert(run) }
            if format == .jsonl {
                print(json(reject).text)
            } else {
                printer.add(reject)
            }
        }
        if run == nil && given == 0 {
            throw NotFound(message: "no run \(runID) in the ledger (never recorded, or pruned)")
        }
        if format == .table {
            printer.flush()
            let filter = reason.map { " with a reason containing \(JSONText.string($0))" } ?? ""
            let replays = replayedBy.sorted().map { "run \($0)" }.joined(separator: ", ")
            print("\(given) \(given == 1 ? "reject" : "rejects")\(filter)"
                + (replays.isEmpty ? "" : "; replayed by \(replays) (`mlsfeed rejects replay`)"))
        }
        return 0
    }

    static func json(_ reject: StoredReject) -> JSONValue {
        // The stored JSON as it is, without PostgreSQL's spaces: `[[key, value], ...]` or a nested record's object.
        let raw = JSONValue.raw(JSONValue.compacted(reject.rawJSON))
        return .object([
            ("run_id", .int(reject.runID)), ("source", .string(reject.source)), ("entity", .string(reject.entity)),
            ("key", .string(reject.key)), ("position", .string(reject.position.description)),
            ("file", .string(reject.position.file)), ("line", .int(Int64(reject.position.line))),
            ("column", .int(Int64(reject.position.column))), ("ordinal", .int(reject.ordinal)),
            ("reasons", .array(reject.reasons.map { .string($0) })), ("raw", raw),
            ("replayed_by", .int(reject.replayedBy)),
        ])
    }

    /// The table format, streamed: the first page of rows sets the column widths; later rows are printed as they
    /// come with those widths (a longer cell pushes its line right rather than every row being held in memory).
    struct TablePrinter {
        static let page = 1000
        private var table = TextTable(["position", "key", "reasons", "raw"])
        private var widths: [Int]?

        init() {
            table.widths = ["position": 1000, "key": 30, "reasons": 200, "raw": 100]
        }

        mutating func add(_ reject: StoredReject) {
            let raw: String
            switch reject.raw {
            case .fields(let fields): raw = fields.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
            case .object(let text): raw = text
            }
            table.append([reject.position.description, "\(reject.entity) \(reject.key ?? "-")",
                          reject.reasons.joined(separator: "; "), raw])
            if table.rows.count >= Self.page { flush() }
        }

        /// Prints the rows held (with the header, the first time).
        mutating func flush() {
            guard !table.rows.isEmpty else { return }
            if widths == nil {
                widths = table.columnWidths
                print(table.line(table.header, columnWidths: widths!))
            }
            for row in table.takeRows() { print(table.line(row, columnWidths: widths!)) }
        }
    }
}
