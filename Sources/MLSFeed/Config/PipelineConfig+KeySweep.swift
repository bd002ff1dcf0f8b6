import YAMLConfig

extension PipelineConfig {
    /// The pipeline as its key sweep runs: the same source, asked for `$select=<key field>,<replication field>`
    /// (and the deletion field) of every record, ordered by the key, with `$count=true` and without `$expand` or the
    /// replication position, through a mapping of the key and the modification timestamp only; a full run that
    /// sends each key into `seen_listings` (`LoadOptions.sweep`). The key field is the one the mapping's
    /// `listing_id` is read from first. Throws when the pipeline has no key sweep (not a replicated Web API
    /// source of listings, or read from `input`, a `--input` that is no URL).
    package func keySweep(input: String? = nil) throws -> PipelineConfig {
        guard var api = fetch.webAPI, let replication = api.replication else {
            throw ConfigError(file: file, line: 0, column: 0, message: "pipeline \(name) is no replicated Web API "
                + "source (source.http.replication): a key sweep compares a replica's listings with the server's keys")
        }
        if let input, !InputLocator.isURL(input) {
            throw ConfigError(file: file, line: 0, column: 0, message: "pipeline \(name): a key sweep asks the Web "
                + "API server for its keys; --input \(input) is no URL")
        }
        guard mapping.entity == .listing else {
            throw ConfigError(file: file, line: 0, column: 0, message: "pipeline \(name) loads agents, which are "
                + "never withdrawn: a key sweep withdraws listings")
        }
        let keyColumn = mapping.entity.keyColumn
        guard let keyMapping = mapping.fields.first(where: { $0.name == keyColumn }),
              let keyField = keyMapping.sources.first, Self.isFieldName(keyField) else {
            throw ConfigError(file: file, line: 0, column: 0, message: "pipeline \(name): the mapping's \(keyColumn) "
                + "is not read first from a field name, so a key sweep cannot ask the server for it")
        }
        var key = keyMapping
        key.sources = [keyField]
        var modified = mapping.fields.first { $0.name == "modification_timestamp" }
            ?? FieldMapping(name: "modification_timestamp", sources: [], type: .timestamp)
        modified.sources = [replication.field]
        var sweep = self
        sweep.mapping = Mapping(entity: .listing, fields: [key, modified])
        api.query.select = [keyField, replication.field] + (api.deletion.map { [$0.field] } ?? [])
        api.query.expand = []
        api.query.orderBy = keyField
        api.query.count = true
        api.replication = nil
        sweep.fetch.webAPI = api
        if case .resoJSON(var json) = parse.format {
            json.alsoRead = api.deletion.map { [$0.field] } ?? []
            json.multiValue = []
            sweep.parse.format = .resoJSON(json)
        }
        sweep.mode = .full
        sweep.mergeWhileParsing = 0
        return sweep
    }

    /// Checks a load mode given on the command line (`--mode`): a replicated source is never loaded `full`.
    package func check(mode: LoadMode?) throws {
        guard mode == .full, fetch.webAPI?.replication != nil else { return }
        throw ConfigError(file: file, line: 0, column: 0, message: "--mode full: a replicated source "
            + "(source.http.replication) reads only what changed, never a complete dump, so a full run would "
            + "withdraw every listing the delta did not carry; withdraw what the server no longer has with the key "
            + "sweep (mlsfeed sweep \(name))")
    }
}
