import Foundation
import MLSFeed

/// `mlsfeed plan`: runs every stage against the database in one transaction and rolls it back, then prints what the
/// run would do. Nothing is written: no ledger row (the output's `planned` record only), no listing, agent, history
/// or replication row. Exits with the code the run would (0 it would load or be skipped as unchanged, 3 a safety
/// rule would stop it), or the plan's own failure's.
enum PlanCommand {
    static func main(_ args: [String]) throws -> Int32 {
        let parsed = try Arguments(args, command: CommandHelp.plan)
        guard parsed.positionals.count == 1 else {
            throw UsageError(message: parsed.positionals.isEmpty ? "missing PIPELINE" : "expected one PIPELINE")
        }
        let format = try OutputFormat(parsed["format"], allowed: [.table, .json])
        var options = RunOptions()
        options.plan = true
        options.input = parsed["input"]
        options.force = parsed.has("force")
        if let mode = parsed["mode"] {
            guard let value = LoadMode(rawValue: mode) else {
                throw UsageError(message: "--mode must be full or incremental, got \(mode)")
            }
            options.mode = value
        }
        let context = try Context(configFlag: parsed["config"])
        let pipelinePath = try RunCommand.locatePipeline(parsed.positionals[0])
        let config = try PipelineConfig.load(path: pipelinePath, project: context.project,
                                             environment: context.environment)
        options.database = context.project.timeouts
        // Only the warnings of the run's events (retries, lock waits): the plan prints its end and its warnings.
        let jsonLog = context.project.logFormat == .json
        options.events = { event in
            guard event.level != .info, event.name != "run.finished", event.name != "warning" else { return }
            printError(jsonLog ? event.json : event.text)
        }
        options.conninfo = try context.conninfo(flag: parsed["database"])
        let runner = PipelineRunner(config: config, options: options)
        var code: Int32 = 0
        _ = try Signals.shared.whileRunning(stop: { runner.interrupt() }) {
            try runner.runAll { summary in
                let stop = Stop(summary)
                if summary.status == .failed || summary.status == .interrupted, stop == nil {
                    // The plan itself failed (bad input, database): not something the run would decide.
                    printError(summary.error ?? "error: the plan failed")
                    code = exitCode(for: summary.failure ?? .input, signal: Signals.shared.first)
                    return
                }
                if stop != nil { code = 3 }
                print(format == .json ? json(summary, stop: stop).text + "\n" : text(summary, stop: stop),
                      terminator: "")
            }
        }
        return code
    }

    /// A safety rule that would stop the run, and why.
    struct Stop: Equatable {
        /// `withdraw_guard`, `completeness` or `max_reject_ratio`.
        var rule: String
        var reason: String

        init?(_ summary: RunSummary) {
            guard summary.failure == .refused, let error = summary.error else { return nil }
            reason = error.hasPrefix("error: ") ? String(error.dropFirst(7)) : error
            if reason.hasPrefix("full dump holds ") {
                rule = "withdraw_guard"
            } else if reason.hasPrefix("dump is incomplete") {
                rule = "completeness"
            } else if reason.contains("max_reject_ratio") {
                rule = "max_reject_ratio"
            } else {
                rule = "refused"
            }
        }
    }

    /// What the run would do: `load`, `unchanged` (skipped by change detection) or `stop`.
    static func outcome(_ summary: RunSummary, stop: Stop?) -> String {
        stop != nil ? "stop" : summary.status == .unchanged ? "unchanged" : "load"
    }

    static func inputs(_ summary: RunSummary) -> [String] {
        summary.identities.isEmpty ? summary.inputs.map(\.displayName) : summary.identities.map(\.location)
    }

    static func text(_ summary: RunSummary, stop: Stop?) -> String {
        var lines = ["planned (nothing written, no ledger row): pipeline \(summary.pipeline), source "
            + "\(summary.source), mode \(summary.mode), input \(inputs(summary).joined(separator: ", "))"]
        switch outcome(summary, stop: stop) {
        case "unchanged":
            let matched = summary.matchedRun.map(String.init) ?? "?"
            lines.append("would be skipped: the input is unchanged since run \(matched) (--force plans a load of it "
                + "anyway)")
            return lines.joined(separator: "\n") + "\n"
        case "stop":
            lines.append("read \(summary.read), rejected \(summary.rejected)")
            lines.append("would stop (\(stop!.rule)): \(stop!.reason)")
            lines.append("nothing would be loaded")
            return lines.joined(separator: "\n") + "\n"
        default:
            break
        }
        let load = summary.load
        let plan = load.plan ?? LoadPlan()
        lines.append("read \(summary.read), rejected \(summary.rejected), duplicates \(summary.duplicates); as of "
            + "\(load.asOf ?? "-")\(load.reconciled ? ", reconciles the source (withdraws what it lacks)" : "")")
        var table = TextTable(["listings", "count", "examples"])
        table.rightAligned = ["count"]
        table.widths = ["examples": 200]
        for (name, count, keys) in [("inserted", load.inserted, plan.listings.inserted),
                                    ("updated", load.updated, plan.listings.updated),
                                    ("unchanged", load.unchanged, plan.listings.unchanged),
                                    ("stale", load.stale, plan.listings.stale),
                                    ("withdrawn", load.withdrawn, plan.listings.withdrawn)] {
            table.append([name, String(count), examples(keys, count: count)])
        }
        lines.append(table.text)
        lines.append("agents: inserted \(load.agentsInserted), updated \(load.agentsUpdated), unchanged "
            + "\(load.agentsUnchanged)")
        let total = plan.changeCounts.values.reduce(0, +)
        let kinds = plan.changeCounts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        let quoted = total > plan.changes.count ? "; the first \(LoadPlan.changeLimit) of each kind:" : ""
        lines.append("price and status changes: \(total)"
            + (kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")))\(quoted)"))
        if !plan.changes.isEmpty {
            var changes = TextTable(["listing", "change", "price", "status"])
            for change in plan.changes {
                changes.append([change.listingID, change.change, arrow(change.oldPrice, change.newPrice),
                                arrow(change.oldStatus, change.newStatus)])
            }
            lines += changes.text.split(separator: "\n").map { "  " + $0 }
        }
        for warning in summary.warnings { lines.append("warning: \(warning)") }
        lines.append("would load")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `a → b`, or `a` when unchanged; `-` for none.
    static func arrow(_ old: String?, _ new: String?) -> String {
        old == new ? (new ?? "-") : "\(old ?? "-") → \(new ?? "-")"
    }

    /// The example keys, and `…` when there are more than those.
    static func examples(_ keys: [String], count: Int) -> String {
        keys.joined(separator: " ") + (count > keys.count ? " …" : "")
    }

    static func json(_ summary: RunSummary, stop: Stop?) -> JSONValue {
        let load = summary.load
        let plan = load.plan ?? LoadPlan()
        func outcome(_ count: Int, _ keys: [String]) -> JSONValue {
            .object([("count", .int(Int64(count))), ("examples", .array(keys.map { .string($0) }))])
        }
        let identities: [JSONValue] = summary.identities.isEmpty
            ? summary.inputs.map { .object([("location", .string($0.displayName)), ("bytes", .int($0.bytes)),
                                            ("sha256", .null)]) }
            : summary.identities.map { .object([("location", .string($0.location)), ("bytes", .int($0.bytes)),
                                                ("sha256", .string($0.sha256))]) }
        return .object([
            ("record", .string("planned")),
            ("pipeline", .string(summary.pipeline)), ("source", .string(summary.source)),
            ("mode", .string(summary.mode)), ("inputs", .array(identities)),
            ("outcome", .string(Self.outcome(summary, stop: stop))),
            ("stop", stop.map { .object([("rule", .string($0.rule)), ("reason", .string($0.reason))]) } ?? .null),
            ("matched_run", .int(summary.matchedRun)),
            ("read", .int(Int64(summary.read))), ("rejected", .int(Int64(summary.rejected))),
            ("duplicates", .int(Int64(summary.duplicates))),
            ("as_of", .string(load.asOf)), ("reconciled", .bool(load.reconciled)),
            ("listings", .object([
                ("inserted", outcome(load.inserted, plan.listings.inserted)),
                ("updated", outcome(load.updated, plan.listings.updated)),
                ("unchanged", outcome(load.unchanged, plan.listings.unchanged)),
                ("stale", outcome(load.stale, plan.listings.stale)),
                ("withdrawn", outcome(load.withdrawn, plan.listings.withdrawn)),
            ])),
            ("agents", .object([
                ("inserted", outcome(load.agentsInserted, plan.agents.inserted)),
                ("updated", outcome(load.agentsUpdated, plan.agents.updated)),
                ("unchanged", outcome(load.agentsUnchanged, plan.agents.unchanged)),
            ])),
            ("changes", .object([
                ("count", .int(Int64(plan.changeCounts.values.reduce(0, +)))),
                ("by_change", .object(plan.changeCounts.sorted { $0.key < $1.key }.map {
                    ($0.key, .int(Int64($0.value)))
                })),
                ("sample", .array(plan.changes.map { change in
                    .object([("listing_id", .string(change.listingID)), ("change", .string(change.change)),
                             ("old_price", .numeric(change.oldPrice)), ("new_price", .numeric(change.newPrice)),
                             ("old_status", .string(change.oldStatus)), ("new_status", .string(change.newStatus))])
                })),
            ])),
            ("warnings", .array(summary.warnings.map { .string($0) })),
        ])
    }
}
