/// The warnings a run of a structured feed gives about its mapping's paths, once per run and field: a path that
/// matched in no record (a typo, or a field the feed does not have), and one that matched more than once in a
/// record (a scalar field takes the first match).
enum PathWarnings {
    static func lines(mapping: Mapping, matches: [String: PathMatches], records: Int) -> [String] {
        guard !matches.isEmpty, records > 0 else { return [] }
        var lines: [String] = []
        let embeddedFields = mapping.recordEntries.flatMap { slot in
            slot.entry.fields.map { (slot.entry.entity.issuePrefix + $0.name, $0) }
        }
        for (name, field) in mapping.fields.map({ ($0.name, $0) }) + embeddedFields {
            let counted = field.sources.compactMap { source in matches[source].map { (source, $0) } }
            guard !counted.isEmpty else { continue }
            if counted.allSatisfy({ $0.1.records == 0 }) {
                let paths = counted.map { quoted($0.0) }.joined(separator: ", ")
                lines.append("mapping field \(name): \(paths) matched nothing in \(records) records")
            }
            for (source, count) in counted where count.repeated > 0 {
                lines.append("mapping field \(name): \(quoted(source)) matched more than once in \(count.repeated) "
                             + "records; the first match was taken")
            }
        }
        return lines
    }
}
