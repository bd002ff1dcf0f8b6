import Foundation
import Postgres

/// One row of a `QueryResult`, read by column name into typed values; a value that does not read as its type is a
/// `LoadError` naming the column (the ledger's own columns, so it means a schema this build does not know).
struct ResultRow {
    let result: QueryResult
    let index: Int

    /// Every row of `result`.
    static func all(_ result: QueryResult) -> [ResultRow] {
        result.rows.indices.map { ResultRow(result: result, index: $0) }
    }

    /// The text of `column`, nil for SQL NULL.
    func text(_ column: String) throws -> String? {
        guard let position = result.columns.firstIndex(of: column) else {
            throw LoadError("the ledger query has no column \(column)")
        }
        return result.rows[index][position]
    }

    /// A text column that is never NULL.
    func string(_ column: String) throws -> String {
        guard let text = try text(column) else { throw LoadError("ledger column \(column) is NULL") }
        return text
    }

    /// An integer column, nil for NULL.
    func int(_ column: String) throws -> Int64? {
        guard let text = try text(column) else { return nil }
        guard let value = Int64(text) else { throw LoadError("ledger column \(column): not an integer: \(text)") }
        return value
    }

    /// An integer column that is never NULL.
    func count(_ column: String) throws -> Int64 {
        guard let value = try int(column) else { throw LoadError("ledger column \(column) is NULL") }
        return value
    }

    /// A boolean column (`t`/`f`), nil for NULL.
    func bool(_ column: String) throws -> Bool? {
        try text(column).map { $0 == "t" }
    }

    /// Seconds since the epoch (`extract(epoch FROM ...)`) as a date, nil for NULL.
    func date(_ column: String) throws -> Date? {
        guard let text = try text(column) else { return nil }
        guard let seconds = Double(text) else { throw LoadError("ledger column \(column): not a time: \(text)") }
        return Date(timeIntervalSince1970: seconds)
    }

    /// A JSON column (`jsonb::text`, `to_jsonb(array)::text`) decoded as `type`; nil for NULL.
    func json<T: Decodable>(_ column: String, as type: T.Type) throws -> T? {
        guard let text = try text(column) else { return nil }
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw LoadError("ledger column \(column): unexpected JSON: \(text.prefix(80))")
        }
    }
}
