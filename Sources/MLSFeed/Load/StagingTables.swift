import Postgres

/// The SQL of the per-run staging tables and the COPY rows that fill them.
///
/// A staging table holds every record a run wrote, duplicates included, typed like the target table, plus the
/// record's run-wide ordinal (a listing's media and open houses: their listing's). It is a temporary table dropped
/// when the run's transaction ends.
enum StagingTables {
    static func table(_ entity: Entity) -> String {
        "staging_" + entity.table
    }

    static func incoming(_ entity: Entity) -> String {
        "incoming_" + entity.table
    }

    /// Bookkeeping columns after `extra` and `content_hash`: listings keep their raw fingerprint (`RawHash`).
    static func bookkeeping(_ entity: Entity) -> String {
        entity == .listing ? ", raw_hash" : ""
    }

    /// Staging-only columns after the bookkeeping: a listing's mask of the columns its feed does not carry
    /// (`NormalizedRecord.absent`, as a signed bigint), which the merge keeps; a listing's media and open houses
    /// whether their listing's copy went straight into `listings` (a first load, see `FirstLoad`).
    static func staged(_ entity: Entity) -> String {
        entity == .listing ? ", absent" : entity.belongsToListing ? ", listing_copied" : ""
    }

    /// `CREATE TEMP TABLE` of the entity's staging table (dropped at commit or rollback).
    static func create(_ entity: Entity) -> String {
        let columns = entity.columns.map { column in
            "\(column.name) \(column.type.rawValue)\(column.name == entity.keyColumn ? " NOT NULL" : "")"
        }
        let more = entity == .listing ? ", raw_hash bigint, absent bigint NOT NULL DEFAULT 0"
            : entity.belongsToListing ? ", listing_copied boolean NOT NULL DEFAULT false" : ""
        return "CREATE TEMP TABLE \(table(entity)) (ordinal bigint NOT NULL, " + columns.joined(separator: ", ")
            + ", extra jsonb NOT NULL, content_hash text\(more)) ON COMMIT DROP"
    }

    /// The `COPY ... FROM STDIN` of the entity's staging table.
    static func copy(_ entity: Entity) -> String {
        "COPY \(table(entity)) (ordinal, \(entity.columns.map(\.name).joined(separator: ", ")), extra, content_hash"
            + "\(bookkeeping(entity))\(staged(entity))) FROM STDIN"
    }

    /// The `COPY` of a first load's first copies straight into their table (`listings`, and their media and open
    /// houses): a row with the source in place of the ordinal and the run id twice at the end.
    static func copyInto(_ entity: Entity) -> String {
        "COPY \(entity.table) (source, \(entity.columns.map(\.name).joined(separator: ", ")), "
            + "extra, content_hash\(bookkeeping(entity)), first_seen_run, last_changed_run) FROM STDIN"
    }

    /// `copyInto(.listing)`.
    static let copyIntoListings = copyInto(.listing)

    /// The first field of a COPY row: the record's ordinal (the staging tables) or the source (`copyIntoListings`).
    enum Leading {
        case ordinal
        case source(String)
    }

    /// Writes one record as a text COPY row in the column order of `copy`: `first` (the ordinal, or the source for
    /// `copyInto`), the columns, extra, content hash, raw hash (listings), the absent mask (listings, when
    /// `staging`) or `listingCopied` (media and open houses, when `staging`), then `last`.
    static func write(_ record: NormalizedRecord, first: Leading, last: [Int64] = [], staging: Bool = true,
                      listingCopied: Bool = false, extra: inout JSONText.ObjectWriter, json: inout [UInt8],
                      to writer: CopyWriter) throws {
        switch first {
        case .ordinal: writer.field(record.ordinal)
        case .source(let source): writer.field(source)
        }
        for value in record.columns { writer.field(value?.sqlText) }
        withExtra(of: record, extra: &extra, json: &json) { writer.field(bytes: $0) }
        writer.field(record.contentHash.isEmpty ? nil : record.contentHash)
        if record.entity == .listing { writer.field(record.rawHash.map { String(Int64(bitPattern: $0)) }) }
        if record.entity == .listing && staging { writer.field(String(Int64(bitPattern: record.absent))) }
        if record.entity.belongsToListing && staging { writer.field(listingCopied ? "t" : "f") }
        for field in last { writer.field(String(field)) }
        try writer.endRow()
    }

    /// Appends one record as a binary COPY row, the fields as `write` has them; false when a value has no binary
    /// form for its column (the batch then goes as text; `rows` holds part of the row).
    static func append(_ record: NormalizedRecord, first: Leading, last: [Int64] = [], staging: Bool = true,
                       listingCopied: Bool = false, extra: inout JSONText.ObjectWriter, json: inout [UInt8],
                       to rows: inout BinaryCopyRows) -> Bool {
        let listing = record.entity == .listing
        let flagged = staging && (listing || record.entity.belongsToListing)
        rows.beginRow(fields: 3 + record.columns.count + (listing ? 1 : 0) + (flagged ? 1 : 0) + last.count)
        switch first {
        case .ordinal: rows.int64(Int64(record.ordinal))
        case .source(let source): rows.text(source)
        }
        let columns = record.entity.columns
        for (index, value) in record.columns.enumerated() {
            guard rows.append(value, as: columns[index].type) else { return false }
        }
        withExtra(of: record, extra: &extra, json: &json) { rows.jsonb($0) }
        if record.contentHash.isEmpty { rows.null() } else { rows.text(record.contentHash) }
        if listing {
            if let rawHash = record.rawHash { rows.int64(Int64(bitPattern: rawHash)) } else { rows.null() }
        }
        if listing && staging { rows.int64(Int64(bitPattern: record.absent)) }
        if record.entity.belongsToListing && staging { rows.boolean(listingCopied) }
        for field in last { rows.int64(field) }
        return true
    }

    /// Calls `body` with the record's `extra` as JSON bytes: those the parse wrote, else written into `json`.
    private static func withExtra(of record: NormalizedRecord, extra: inout JSONText.ObjectWriter,
                                  json: inout [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if let extraJSON = record.extraJSON {
            extraJSON.withUnsafeBufferPointer(body)
        } else {
            json.removeAll(keepingCapacity: true)
            extra.append(record.extra, to: &json)
            json.withUnsafeBufferPointer(body)
        }
    }

    /// `CREATE TEMP TABLE incoming_agents` (or `incoming_offices` of a listing feed) `AS`: one row per key, each
    /// column the latest value the run's records gave it (by ordinal, then the later row), `extra` the latest
    /// non-empty one: the listings that name an agent or office seldom carry all of it (one names its office's
    /// address, the next only its name). A key staged once keeps its record's content hash; a merged row gets the
    /// md5 of its content.
    static func resolveShared(_ entity: Entity) -> String {
        let key = entity.keyColumn
        let columns = entity.columns.map(\.name).filter { $0 != key }
        let order = "ORDER BY ordinal DESC, ctid DESC"
        let latest = columns.map { "(array_agg(\($0) \(order)) FILTER (WHERE \($0) IS NOT NULL))[1] AS \($0)" }
        let all = ([key] + columns).joined(separator: ", ")
        return """
            CREATE TEMP TABLE \(incoming(entity)) ON COMMIT DROP AS
            SELECT ordinal, \(all), extra,
                   CASE WHEN copies = 1 THEN content_hash ELSE md5(ROW(\(all), extra)::text) END AS content_hash
            FROM (
                SELECT \(key), max(ordinal) AS ordinal, count(*) AS copies,
                       \(latest.joined(separator: ",\n               ")),
                       coalesce((array_agg(extra \(order)) FILTER (WHERE extra <> '{}'))[1], '{}') AS extra,
                       (array_agg(content_hash \(order)))[1] AS content_hash
                FROM \(table(entity))
                GROUP BY \(key)
            ) merged
            """
    }

    /// `CREATE TEMP TABLE incoming_... AS`: one row per key, the newest record winning (then the later one; agents
    /// have no modification time: the later one).
    /// A record without a content hash gets an md5 of its content.
    static func resolveDuplicates(_ entity: Entity) -> String {
        let columns = entity.columns.map(\.name).joined(separator: ", ")
        let order = entity.modificationIndex != nil
            ? "\(entity.keyColumn), modification_timestamp DESC NULLS LAST, ordinal DESC"
            : "\(entity.keyColumn), ordinal DESC"
        return """
            CREATE TEMP TABLE \(incoming(entity)) ON COMMIT DROP AS
            SELECT DISTINCT ON (\(entity.keyColumn)) ordinal, \(columns), extra,
                   coalesce(content_hash, md5(ROW(\(columns), extra)::text)) AS content_hash\(bookkeeping(entity))\(
                       staged(entity))
            FROM \(table(entity))
            ORDER BY \(order)
            """
    }
}
