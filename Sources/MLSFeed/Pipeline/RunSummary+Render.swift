import Foundation

extension RunSummary {
    /// `{run_id, pipeline, status, read, rejected, duplicates, inserted, updated, unchanged, withdrawn, seconds, ...}`
    public var json: String {
        var members: [(String, String)] = [
            ("run_id", runID.map(String.init) ?? "null"),
            ("pipeline", JSONText.string(pipeline)),
            ("source", JSONText.string(source)),
            ("mode", JSONText.string(mode)),
            ("dry_run", dryRun ? "true" : "false"),
            ("status", JSONText.string(status.rawValue)),
            ("read", String(read)),
            ("rejected", String(rejected)),
            ("duplicates", String(duplicates)),
            ("inserted", String(load.inserted)),
            ("updated", String(load.updated)),
            ("unchanged", String(load.unchanged)),
            ("recognized", String(load.recognized)),
            ("stale", String(load.stale)),
            ("withdrawn", String(load.withdrawn)),
            ("agents_inserted", String(load.agentsInserted)),
            ("agents_updated", String(load.agentsUpdated)),
            ("agents_unchanged", String(load.agentsUnchanged)),
        ]
        for entity in [Entity.office, .media, .openHouse] {
            let counts = load.rows[entity] ?? RowCounts()
            members.append((entity.table, "{" + counts.named.map { "\"\($0.name)\":\($0.value)" }
                .joined(separator: ",") + "}"))
        }
        members += [
            ("removed_characters", String(removedCharacters)),
            ("complete", status == .unchanged ? "null" : (completeness.isComplete ? "true" : "false")),
            ("incomplete_reasons", "[" + completeness.reasons.map(JSONText.string).joined(separator: ",") + "]"),
            ("as_of", load.asOf.map(JSONText.string) ?? "null"),
            ("reconciled", load.reconciled ? "true" : "false"),
            ("matched_run", matchedRun.map(String.init) ?? "null"),
            ("replication_mark", load.replicationMark.map(JSONText.string) ?? "null"),
            ("failure", failure.map { JSONText.string($0.rawValue) } ?? "null"),
            ("seconds", String(format: "%.3f", seconds)),
        ]
        members.append(("warnings", "[" + warnings.map(JSONText.string).joined(separator: ",") + "]"))
        members.append(("issues", "[" + issues.map(JSONText.string).joined(separator: ",") + "]"))
        members.append(("reject_reasons", "[" + rejectReasons.map(JSONText.string).joined(separator: ",") + "]"))
        members.append(("error", error.map(JSONText.string) ?? "null"))
        let stageJSON = stages.map { s in
            "{\"stage\":\(JSONText.string(s.name)),\"in\":\(s.itemsIn),\"out\":\(s.itemsOut),"
                + "\"seconds\":\(String(format: "%.3f", s.seconds))}"
        }
        members.append(("stages", "[" + stageJSON.joined(separator: ",") + "]"))
        return "{" + members.map { "\(JSONText.string($0.0)):\($0.1)" }.joined(separator: ",") + "}\n"
    }

    /// The human summary printed at the end of a run.
    public var text: String {
        var lines: [String] = []
        let id = runID.map { " run \($0)" } ?? ""
        let dry = dryRun ? " (dry run: nothing written to the database)" : ""
        lines.append("mlsfeed: pipeline \(pipeline)\(id), source \(source), mode \(mode): \(status.rawValue)\(dry)")
        if let error { lines.append(error) }
        // A failure outside any unit read nothing: its error says it all.
        if outsideAnyUnit { return lines.joined(separator: "\n") + "\n" }
        func describe(_ id: InputIdentity) -> String {
            var parts = [id.location]
            if let bytes = id.bytes { parts.append("\(bytes) bytes") }
            if let sha = id.sha256 { parts.append("sha256 \(sha.prefix(12))") }
            return parts.joined(separator: ", ")
        }
        let described = identities.isEmpty ? inputs.map(\.displayName) : identities.map(describe)
        if described.count == 1 {
            lines.append("  input: \(described[0])")
        } else if !described.isEmpty {
            lines.append("  inputs (\(described.count) parts of one dump):")
            lines += described.prefix(10).map { "    \($0)" }
            if described.count > 10 { lines.append("    ... and \(described.count - 10) more") }
        }
        if status == .unchanged {
            let run = matchedRun.map { "run \($0)" } ?? "the source's last successful run"
            lines.append("  unchanged: the same input in the same mode as \(run), the source's last successful run; "
                         + "nothing loaded (--force loads it again)")
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append("  read \(read), rejected \(rejected), duplicates \(duplicates); inserted \(load.inserted), "
                     + "updated \(load.updated), unchanged \(load.unchanged), stale \(load.stale), "
                     + "withdrawn \(load.withdrawn); \(String(format: "%.2f", seconds)) s"
                     + (read > 0 && seconds > 0 ? String(format: " (%.0f records/s)", Double(read) / seconds) : ""))
        if load.agentsInserted + load.agentsUpdated + load.agentsUnchanged > 0 {
            lines.append("  agents: inserted \(load.agentsInserted), updated \(load.agentsUpdated), "
                         + "unchanged \(load.agentsUnchanged)")
        }
        for entity in [Entity.office, .media, .openHouse] {
            guard let counts = load.rows[entity], counts.named.contains(where: { $0.value > 0 }) else { continue }
            lines.append("  \(entity.table): \(counts.summary)")
        }
        if !completeness.isComplete {
            lines.append("  incomplete dump: \(completeness.summary)")
        }
        if let mark = load.replicationMark {
            lines.append("  replication mark: \(mark) (the next run asks for what changed since)")
        }
        if load.recognized > 0 {
            lines.append("  \(load.recognized) records recognised as unchanged stored listings: not normalized again")
        }
        if !stages.isEmpty {
            lines.append("  stage      batches       in      out   busy s")
            for s in stages {
                lines.append("  " + s.name.padding(toLength: 9, withPad: " ", startingAt: 0)
                             + String(format: "%9d %8d %8d %8.2f", s.batches, s.itemsIn, s.itemsOut, s.seconds))
            }
        }
        if removedCharacters > 0 { lines.append("  removed \(removedCharacters) control characters from values") }
        for warning in warnings { lines.append("  warning: \(warning)") }
        if !rejectReasons.isEmpty {
            lines.append("  rejects by reason:")
            lines += rejectReasons.map { "    \($0)" }
        }
        if !issues.isEmpty {
            lines.append("  bad optional values (set to NULL or default):")
            lines += issues.map { "    \($0)" }
        }
        if !sampleRejects.isEmpty {
            lines.append("  first rejects:")
            lines += sampleRejects.map { "    \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
