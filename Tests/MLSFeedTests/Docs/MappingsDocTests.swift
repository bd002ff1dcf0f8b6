import Foundation
import Testing
@testable import MLSFeed

/// `docs/mappings.md` lists the names `mapping init` places each column by: its tables are checked against
/// the rules of each entity (`ColumnRule.listing`, `ColumnRule.agent`, `.office`, `.openHouse`, `.media`), names and
/// order.
@Suite struct MappingsDocTests {
    /// Column → names, from the tables under `### Names mapping init knows` (a remark in parentheses dropped).
    static func documentedNames() throws -> [[String: [String]]] {
        let text = try String(contentsOf: DataModelDocTests.root.appendingPathComponent("docs/mappings.md"),
                              encoding: .utf8)
        let section = text.components(separatedBy: "\n### Names mapping init knows\n").dropFirst().first?
            .components(separatedBy: "\n#").first ?? ""
        var tables: [[String: [String]]] = []
        var inTable = false
        for line in section.components(separatedBy: "\n") {
            guard line.hasPrefix("| `") else {
                inTable = inTable && line.hasPrefix("|")
                continue
            }
            if !inTable { tables.append([:]) }
            inTable = true
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let names = cells[1].replacing(#/ \(.*\)/#, with: "").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }
            tables[tables.count - 1][String(cells[0].dropFirst().dropLast())] = names
        }
        return tables
    }

    @Test func theNamesTablesAreTheRules() throws {
        let tables = try Self.documentedNames()
        let all = [ColumnRule.listing, ColumnRule.agent, ColumnRule.office, ColumnRule.openHouse, ColumnRule.media]
        try #require(tables.count == all.count)
        for (table, rules) in zip(tables, all) {
            #expect(Set(table.keys) == Set(rules.map(\.column)))
            for rule in rules { #expect(table[rule.column] == rule.names, "\(rule.column)") }
        }
    }
}
