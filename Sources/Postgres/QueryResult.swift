/// The rows of a query in text form, with column names and the affected-row count of the command.
public struct QueryResult: Sendable, Equatable {
    public let columns: [String]
    public let rows: [[String?]]
    /// Rows inserted, updated, deleted, copied or selected (`PQcmdTuples`); 0 when the command reports none.
    public let affectedRows: Int

    public init(columns: [String], rows: [[String?]], affectedRows: Int) {
        self.columns = columns
        self.rows = rows
        self.affectedRows = affectedRows
    }

    /// The text value at `row` in the column named `column`; nil for SQL NULL or an unknown column.
    public func value(_ row: Int, _ column: String) -> String? {
        guard row >= 0, row < rows.count, let index = columns.firstIndex(of: column) else { return nil }
        return rows[row][index]
    }
}
