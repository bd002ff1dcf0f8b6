import Foundation

/// One row of `rejects`: a record that failed validation, with where it was, why, and its raw fields.
package struct StoredReject: Sendable, Equatable {
    /// The raw record as stored: the ordered fields of a flat record, or the JSON object of a nested one.
    package enum Raw: Sendable, Equatable {
        /// `[[key, value], ...]`: the whole record, in source order.
        case fields([RawField])
        /// A nested record's shaped JSON (`jsonb`, so its keys come back in PostgreSQL's order).
        case object(String)
    }

    package var id: Int64
    package var runID: Int64
    package var source: String
    /// `listing` or `agent`.
    package var entity: String
    /// The MLS number or agent id, when the record had one.
    package var key: String?
    package var position: SourcePosition
    /// The record's place in the feed (0-based).
    package var ordinal: Int64
    /// Every reason, as the summary words them (`list_price: not a price ("call agent")`).
    package var reasons: [String]
    /// The stored `raw` column as JSON text (PostgreSQL's `jsonb` text: a space after each `:` and `,`).
    package var rawJSON: String
    /// Whether `rawJSON` is a flat record's `[[key, value], ...]`.
    package var rawIsFields: Bool
    /// The run that replayed it through a fixed mapping (`mlsfeed rejects replay`), if one did.
    package var replayedBy: Int64?

    /// The raw record, decoded from `rawJSON` when asked (a JSON-lines listing passes the text on as it is).
    package var raw: Raw {
        if rawIsFields, let pairs = try? JSONDecoder().decode([[String]].self, from: Data(rawJSON.utf8)),
           pairs.allSatisfy({ $0.count == 2 }) {
            return .fields(pairs.map { RawField($0[0], $0[1]) })
        }
        return .object(rawJSON)
    }

    /// The SELECT list that `init(_:)` reads.
    static let columns = "id, run_id, source, entity, key, file, line, column_number, ordinal, "
        + "to_jsonb(reasons)::text AS reasons, jsonb_typeof(raw) AS raw_type, raw::text AS raw, replayed_by"

    init(_ row: ResultRow) throws {
        id = try row.count("id")
        runID = try row.count("run_id")
        source = try row.string("source")
        entity = try row.string("entity")
        key = try row.text("key")
        position = SourcePosition(file: try row.string("file"), line: Int(try row.count("line")),
                                  column: Int(try row.count("column_number")))
        ordinal = try row.count("ordinal")
        reasons = try row.json("reasons", as: [String].self) ?? []
        rawJSON = try row.string("raw")
        rawIsFields = try row.text("raw_type") == "array"
        replayedBy = try row.int("replayed_by")
    }
}
