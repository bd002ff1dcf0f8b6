import Postgres

/// The SQL of the per-run staging tables and the COPY rows that fill them.
///
/// A staging table holds every record a run wrote, duplicates included, typed like the target table, plus the
/// record's run-wide ordinal. It is a temporary table dropped when the run's transaction ends.
enum StagingTables {
    static func table(_ entity: Entity) -> String {
        entity == .listing ? "staging_listings" : "staging_agents"
    }

    static func incoming(_ entity: Entity) -> String {
        entity == .listing ? "incoming_listings" : "incoming_agents"
    }

    /// Bookkeeping columns after `extra` and `content_hash`: listings keep their raw fingerprint (`RawHash`).
    static func bookkeeping(_ entity: Entity) -> String {
        entity == .listing ? ", raw_hash" : ""
    }

    /// Staging-only columns after the bookkeeping: a listing's mask of the columns its feed does not carry
    /// (`NormalizedRecord.absent`, as a signed bigint), which the merge keeps.
    static func staged(_ entity: Entity) -> String {
        entity == .listing ? ", absent" : ""
    }

    /// `CREATE TEMP TABLE` of the entity's staging table (dropped at commit or rollback).
    static func create(_ entity: Entity) -> String {
        let columns = entity.columns.map { column in
            "\(column.name) \(column.type.rawValue)\(column.name == entity.keyColumn ? " NOT NULL" : "")"
        }
        return "CREATE TEMP TABLE \(table(entity)) (ordinal bigint NOT NULL, " + columns.joined(separator: ", ")
            + ", extra jsonb NOT NULL, content_hash text"
            + "\(entity == .listing ? ", raw_hash bigint, absent bigint NOT NULL DEFAULT 0" : "")) ON COMMIT DROP"
    }

    /// The `COPY ... FROM STDIN` of the entity's staging table.
    static func copy(_ entity: Entity) -> String {
        "COPY \(table(entity)) (ordinal, \(entity.columns.map(\.name).joined(separator: ", ")), extra, content_hash"
            + "\(bookkeeping(entity))\(staged(entity))) FROM STDIN"
    }

    /// The `COPY` of a first load's first copies straight into `listings`: a `row` with the source in place of the
    /// ordinal and the run id twice at the end.
    static let copyIntoListings = "COPY listings (source, "
        + "\(Entity.listing.columns.map(\.name).joined(separator: ", ")), "
        + "extra, content_hash, raw_hash, first_seen_run, last_changed_run) FROM STDIN"

    /// Writes one record as a COPY row in the column order of `copy`: `first` (the ordinal, or the source for
    /// `copyIntoListings`), the columns, extra, content hash, raw hash (listings), the absent mask (listings, when
    /// `staging`), then `last`.
    static func write(_ record: NormalizedRecord, first: String, last: [String] = [], staging: Bool = true,
                      extra: inout JSONText.ObjectWriter, json: inout [UInt8], to writer: CopyWriter) throws {
        writer.field(first)
        for value in record.columns { writer.field(value?.sqlText) }
        if let extraJSON = record.extraJSON {
            writer.field(bytes: extraJSON)
        } else {
            json.removeAll(keepingCapacity: true)
            extra.append(record.extra, to: &json)
            writer.field(bytes: json)
        }
        writer.field(record.contentHash.isEmpty ? nil : record.contentHash)
        if record.entity == .listing { writer.field(record.rawHash.map { String(Int64(bitPattern: $0)) }) }
        if record.entity == .listing && staging { writer.field(String(Int64(bitPattern: record.absent))) }
        for field in last { writer.field(field) }
        try writer.endRow()
    }

    /// `CREATE TEMP TABLE incoming_... AS`: one row per key, the newest record winning (then the later one).
    /// A record without a content hash gets an md5 of its content.
    static func resolveDuplicates(_ entity: Entity) -> String {
        let columns = entity.columns.map(\.name).joined(separator: ", ")
        let order = entity == .listing
            ? "listing_id, modification_timestamp DESC NULLS LAST, ordinal DESC"
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
