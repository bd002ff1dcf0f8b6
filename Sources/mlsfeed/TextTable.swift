import Foundation

/// A plain-text table for the terminal: a header and rows in columns two spaces apart, long cells cut with `…`.
struct TextTable {
    let header: [String]
    private(set) var rows: [[String]] = []
    /// The widest a cell may be before it is cut; per column, by header name, else `maxWidth`.
    var widths: [String: Int] = [:]
    var maxWidth = 60
    /// Columns aligned to the right (numbers).
    var rightAligned: Set<String> = []

    init(_ header: [String]) {
        self.header = header
    }

    /// Adds a row (cells cut to their column's limit, line breaks flattened).
    mutating func append(_ row: [String]) {
        rows.append(row.enumerated().map { i, cell in
            let limit = widths[header[i]] ?? maxWidth
            // Cut first: a cell may be a whole raw record.
            let head = cell.prefix(limit + 1).replacingOccurrences(of: "\n", with: " ")
            return head.count > limit ? String(head.prefix(limit - 1)) + "…" : head
        })
    }

    /// The rows added so far, then forgets them (for a table printed page by page with `columnWidths`).
    mutating func takeRows() -> [[String]] {
        defer { rows = [] }
        return rows
    }

    /// The width of each column: its widest cell among the header and the rows added.
    var columnWidths: [Int] {
        var columnWidths = header.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() { columnWidths[i] = max(columnWidths[i], cell.count) } }
        return columnWidths
    }

    /// One line of cells padded to `columnWidths` (a longer cell pushes the rest of its line right), no trailing
    /// spaces.
    func line(_ cells: [String], columnWidths: [Int]) -> String {
        var text = ""
        for (i, cell) in cells.enumerated() {
            let pad = String(repeating: " ", count: max(0, columnWidths[i] - cell.count))
            if i > 0 { text += "  " }
            text += rightAligned.contains(header[i]) ? pad + cell : cell + pad
        }
        while text.last == " " { text.removeLast() }
        return text
    }

    /// The whole table: the header, then a line per row.
    var text: String {
        let widths = columnWidths
        return ([header] + rows).map { line($0, columnWidths: widths) }.joined(separator: "\n")
    }
}
