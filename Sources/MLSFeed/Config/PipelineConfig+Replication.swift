import YAMLConfig

extension PipelineConfig {
    /// Checks and completes a replicated Web API source (`source.http.replication`) once the mapping is known: the
    /// order must start with the replication field (then the tie-break key, by default the field the mapping's key
    /// is read from first), a full load is refused (a delta is no complete dump), and a key sweep needs listings.
    /// The replication field and the key are read from every record (`ResoJSONSettings.alsoRead`).
    mutating func completeReplication(http: ConfigNode?, load: ConfigNode?) throws {
        guard var api = fetch.webAPI, var replication = api.replication, let http else { return }
        let replicationNode = http["replication"]
        let defaultKey = mapping.fields.first { $0.name == mapping.entity.keyColumn }?.sources.first
            .flatMap { Self.isFieldName($0) ? $0 : nil }
        let orderNode = http["odata"]?["orderby"]
        var key = defaultKey
        if let given = api.query.orderBy, let orderNode {
            let items = given.split(separator: ",").map { $0.split(whereSeparator: \.isWhitespace).map(String.init) }
            let ascending = items.allSatisfy { words in
                (1...2).contains(words.count) && (words.count == 1 || words[1].lowercased() == "asc")
            }
            guard ascending, (1...2).contains(items.count), items[0][0] == replication.field,
                  items.count == 1 || Self.isFieldName(items[1][0]) else {
                let example = defaultKey.map { "\(replication.field), or \(replication.field),\($0)" }
                    ?? "\(replication.field),ListingKey"
                throw orderNode.error("with replication the records must be ordered by \(replication.field) first "
                    + "(\(example)), got \(quoted(given)): another order lets the mark pass records never fetched")
            }
            if items.count == 2 { key = items[1][0] }
        }
        guard let key else {
            throw (orderNode ?? replicationNode ?? http).error("with replication the records sharing a timestamp "
                + "are ordered by a key field; the mapping's key \(mapping.entity.keyColumn) is not read first from "
                + "a field name, so name one in odata.orderby (\(replication.field),ListingKey)")
        }
        replication.key = key
        api.query.orderBy = "\(replication.field),\(key)"
        if let mode = load?["mode"], self.mode == .full {
            throw mode.error("a replicated source (source.http.replication) reads only what changed, never a "
                + "complete dump, so a full run would withdraw every listing the delta did not carry; keep "
                + "load.mode: incremental and withdraw what the server no longer has with the key sweep "
                + "(source.http.replication.key_sweep, or mlsfeed sweep PIPELINE)")
        }
        if replication.sweepEvery != nil, mapping.entity != .listing, let sweep = replicationNode?["key_sweep"] {
            throw sweep.error("a key sweep withdraws listings the server no longer has; agents are never "
                + "withdrawn, so an agent pipeline has no key sweep")
        }
        api.replication = replication
        fetch.webAPI = api
        if case .resoJSON(var json) = parse.format {
            json.alsoRead += [replication.field, key]
            parse.format = .resoJSON(json)
        }
    }

    /// Whether `text` is a plain OData property name (letters, digits, `_`), not a path.
    static func isFieldName(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }
}
