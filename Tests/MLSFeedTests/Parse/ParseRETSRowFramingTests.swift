import Foundation
import Testing
import MLSFeed

/// How a DATA row's leading and trailing delimiters are read against three columns A, B, C (framed like COLUMNS).
@Suite struct ParseRETSRowFramingTests {
    @Test(arguments: [
        ("\t1\t2\t3\t", "A=1 B=2 C=3", nil),
        ("1\t2\t3\t", "A=1 B=2 C=3", nil),
        ("\t1\t2\t3", "A=1 B=2 C=3", nil),
        ("1\t2\t3", "A=1 B=2 C=3", nil),
        ("\t1\t\t\t", "A=1 B= C=", nil),
        ("\t\t\t3\t", "A= B= C=3", nil),
        ("1\t\t\t", "A=1 B= C=", nil),
        ("\t\t2\t3", "A= B=2 C=3", nil),
        ("\t\t\t\t", "A= B= C=", nil),
        ("\t1\t2\t", "A=1 B=2", "DATA row has 2 fields but COLUMNS has 3"),
        ("\t1\t2\t3\t4\t", "A=1 B=2 C=3 _extra_value_1=4", "DATA row has 4 fields but COLUMNS has 3"),
    ] as [(String, String, String?)])
    func framing(row: String, fields: String, defect: String?) throws {
        let document = "<RETS ReplyCode=\"0\"><COLUMNS>\tA\tB\tC\t</COLUMNS><DATA>\(row)</DATA></RETS>"
        let (records, _) = try ParseFixture.read(Array(document.utf8), settings: ParseFixture.rets, source: "-")
        #expect(records.map { $0.pairs.joined(separator: " ") } == [fields])
        #expect(records.map(\.defect) == [defect])
    }

    @Test(arguments: [
        ("1\t2\t3", "A=1 B=2 C=3"),
        ("\t2\t3", "A= B=2 C=3"),
        ("1\t2\t", "A=1 B=2 C="),
    ])
    func unframedColumnsMeanUnframedRows(row: String, fields: String) throws {
        let document = "<RETS ReplyCode=\"0\"><COLUMNS>A\tB\tC</COLUMNS><DATA>\(row)</DATA></RETS>"
        let (records, _) = try ParseFixture.read(Array(document.utf8), settings: ParseFixture.rets, source: "-")
        #expect(records.map { $0.pairs.joined(separator: " ") } == [fields])
        #expect(records.map(\.defect) == [nil])
    }
}
