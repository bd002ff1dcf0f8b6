import Foundation
import MLSFeed

/// `mlsfeed runs`: the run ledger, newest first; `mlsfeed runs show ID`: one run in full.
enum RunsCommand {
    static func main(_ args: [String]) throws -> Int32 {
        let parsed = try Arguments(args, command: CommandHelp.runs)
        let format = try OutputFormat(parsed["format"], allowed: [.table, .json])
        switch parsed.positionals.first {
        case nil:
            let limit = try parsed["limit"].map { text -> Int in
                guard let n = Int(text), n > 0 else {
                    throw UsageError(message: "--limit must be a positive integer, got \(text)")
                }
                return n
            } ?? 20
            let context = try Context(configFlag: parsed["config"])
            let ledger = Ledger(try context.ledgerConnection(flag: parsed["database"]))
            let runs = try ledger.runs(pipeline: parsed["name"], limit: limit)
            print(format == .json ? JSONValue.array(runs.map(json)).text : table(runs))
        case "show":
            guard parsed.positionals.count == 2 else {
                throw UsageError(message: "runs show needs one run ID")
            }
            for option in ["name", "limit"] where parsed[option] != nil {
                throw UsageError(message: "--\(option) lists runs; runs show takes a run ID only")
            }
            let id = try runID(parsed.positionals[1], flag: "runs show")
            let context = try Context(configFlag: parsed["config"])
            let ledger = Ledger(try context.ledgerConnection(flag: parsed["database"]))
            guard let detail = try ledger.runDetail(id: id) else {
                throw NotFound(message: "no run \(id) in the ledger (never recorded, or pruned)")
            }
            print(format == .json ? json(detail).text : text(detail), terminator: format == .json ? "\n" : "")
        case let other?:
            throw UsageError(message: "unexpected argument \(other); did you mean `runs show \(other)`?")
        }
        return 0
    }

    /// A run ID given on the command line: a positive integer, else a usage error naming `what`.
    static func runID(_ text: String, flag what: String) throws -> Int64 {
        guard let id = Int64(text), id > 0 else {
            throw UsageError(message: "\(what) expects a run ID (a positive integer), got \(text)")
        }
        return id
    }

    static func table(_ runs: [LedgerRun]) -> String {
        var table = TextTable(["id", "pipeline", "source", "status", "mode", "started", "seconds", "read",
                               "rejected", "dupes", "inserted", "updated", "unchanged", "stale", "withdrawn",
                               "error"])
        table.rightAligned = ["id", "seconds", "read", "rejected", "dupes", "inserted", "updated", "unchanged",
                              "stale", "withdrawn"]
        for run in runs {
            let c = run.counts
            table.append([String(run.id), run.pipeline, run.source, run.status, run.mode, TimeText.local(run.startedAt),
                          run.seconds.map { String(format: "%.2f", $0) } ?? "", String(c.read), String(c.rejected),
                          String(c.duplicates), String(c.inserted), String(c.updated), String(c.unchanged),
                          String(c.stale), String(c.withdrawn), run.error ?? ""])
        }
        return table.text
    }

    static func json(_ run: LedgerRun) -> JSONValue {
        .object(members(run))
    }

    private static func members(_ run: LedgerRun) -> [(String, JSONValue)] {
        [("id", .int(run.id)), ("pipeline", .string(run.pipeline)), ("source", .string(run.source)),
         ("mode", .string(run.mode)), ("status", .string(run.status)), ("started_at", .time(run.startedAt)),
         ("finished_at", .time(run.finishedAt)), ("seconds", run.seconds.map { .number($0) } ?? .null)]
            + run.counts.named.map { ($0.name, .int($0.value)) }
            + [("error", .string(run.error))]
    }

    static func json(_ detail: LedgerRunDetail) -> JSONValue {
        let inputs = detail.inputs.map { input -> JSONValue in
            .object([("location", .string(input.location)), ("bytes", .int(input.bytes)),
                     ("sha256", .string(input.sha256)), ("etag", .string(input.etag)),
                     ("last_modified", .string(input.lastModified))])
        }
        return .object(members(detail.run) + [
            ("inputs", .array(inputs)),
            ("as_of", .time(detail.asOf)),
            ("complete", detail.complete.map { .bool($0) } ?? .null),
            ("incomplete_reasons", .array(detail.incompleteReasons.map { .string($0) })),
            ("reconciled", .bool(detail.reconciled)),
            ("matched_run", .int(detail.matchedRun)),
            ("timings", .object(detail.timings.map { ($0.stage, .number($0.seconds)) })),
        ] + [Entity.office, .media, .openHouse].map { entity in
            (entity.table, .object((detail.rows[entity] ?? RowCounts()).named.map { ($0.name, .int(Int64($0.value))) }))
        } + [
            ("warnings", .array(detail.warnings.map { .string($0) })),
            ("sample_rejects", .array(detail.sampleRejects.map { .string($0) })),
            ("stored_rejects", .int(detail.storedRejects)),
        ])
    }

    /// `runs show` as text: one fact a line, lists indented.
    static func text(_ detail: LedgerRunDetail) -> String {
        let run = detail.run
        let c = run.counts
        var lines = ["run \(run.id): pipeline \(run.pipeline), source \(run.source), mode \(run.mode): \(run.status)"]
        let took = run.seconds.map { String(format: ", %.2f s", $0) } ?? ""
        lines.append("  started \(TimeText.local(run.startedAt))"
                     + (run.finishedAt.map { ", finished \(TimeText.local($0))" } ?? ", not finished") + took)
        if let error = run.error { lines.append("  error: \(error)") }
        if let matched = detail.matchedRun { lines.append("  unchanged: the same input as run \(matched)") }
        lines.append(detail.inputs.count == 1 ? "  input:" : "  inputs (\(detail.inputs.count)):")
        for input in detail.inputs {
            var parts = [input.location]
            if let bytes = input.bytes { parts.append("\(bytes) bytes") }
            if let sha = input.sha256 { parts.append("sha256 \(sha)") }
            if let etag = input.etag { parts.append("ETag \(etag)") }
            if let modified = input.lastModified { parts.append("Last-Modified \(modified)") }
            lines.append("    " + parts.joined(separator: ", "))
        }
        lines.append("  read \(c.read), rejected \(c.rejected), duplicates \(c.duplicates); inserted \(c.inserted), "
                     + "updated \(c.updated), unchanged \(c.unchanged), stale \(c.stale), withdrawn \(c.withdrawn)")
        lines.append("  agents: inserted \(c.agentsInserted), updated \(c.agentsUpdated), "
                     + "unchanged \(c.agentsUnchanged); control characters removed \(c.removedCharacters)")
        for entity in [Entity.office, .media, .openHouse] {
            guard let counts = detail.rows[entity] else { continue }
            lines.append("  \(entity.table): \(counts.summary)")
        }
        let complete: String
        switch detail.complete {
        case true?: complete = "complete"
        case false?: complete = "incomplete (\(detail.incompleteReasons.joined(separator: ", ")))"
        case nil: complete = "not read"
        }
        lines.append("  dump: \(complete); as of \(detail.asOf.map(TimeText.iso) ?? "-"); "
                     + (detail.reconciled ? "reconciled the source" : "did not reconcile the source"))
        if !detail.timings.isEmpty {
            lines.append("  stages: " + detail.timings.map { "\($0.stage) \(String(format: "%.2f", $0.seconds)) s" }
                .joined(separator: ", "))
        }
        if !detail.warnings.isEmpty {
            lines.append("  warnings:")
            lines += detail.warnings.map { "    \($0)" }
        }
        if !detail.sampleRejects.isEmpty {
            lines.append("  first rejects (\(detail.storedRejects) stored; `mlsfeed rejects --run \(run.id)`):")
            lines += detail.sampleRejects.map { "    \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
