import Testing
@testable import MLSFeed

/// A row's framing read by counting its delimiters is the framing its split gives: the same field count and the
/// same span (the fingerprinted bytes), for framed and unframed columns and rows of every shape.
@Suite struct RETSRowBatchTests {
    static func batch(rows: [String], leading: Bool, trailing: Bool, delimiter: String) -> RETSRowBatch {
        var batch = RETSRowBatch(layout: RETSRowBatch.Layout(
            columns: ["A", "B", "C"], multiValued: [false, false, false], needed: [true, false, true],
            delimiter: Array(delimiter.utf8), leading: leading, trailing: trailing), recognizer: nil)
        for (ordinal, row) in rows.enumerated() {
            let start = batch.bytes.count
            batch.bytes += Array(row.utf8)
            batch.entries.append(RETSRowBatch.Entry(text: start..<batch.bytes.count,
                                                    position: SourcePosition(file: "-", line: 1, column: 1),
                                                    ordinal: ordinal))
        }
        return batch
    }

    /// Rows of 0 to 6 fields, each field empty or not, with and without line breaks around the row.
    static func rows(delimiter: String) -> [String] {
        var rows: [String] = []
        for count in 0...6 {
            for mask in 0..<(1 << count) {
                let row = (0..<count).map { mask & (1 << $0) != 0 ? "v\($0)" : "" }.joined(separator: delimiter)
                rows += [row, "\n" + row + "\r\n"]
            }
        }
        return rows
    }

    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)], ["\t", "||"])
    func countingFramesRowsAsSplitting(framing: (leading: Bool, trailing: Bool), delimiter: String) {
        let batch = Self.batch(rows: Self.rows(delimiter: delimiter), leading: framing.leading,
                               trailing: framing.trailing, delimiter: delimiter)
        var fields: [Range<Int>] = []
        var split: [Range<Int>] = []
        for entry in batch.entries {
            let framed = batch.frame(entry, fields: &fields)
            let row = batch.split(entry, into: &split)
            #expect(framed.row == row)
            #expect(framed.count == split.count)
            #expect(framed.span == split.first!.lowerBound..<split.last!.upperBound)
        }
    }
}
