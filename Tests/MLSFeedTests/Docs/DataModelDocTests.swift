import Foundation
import Testing
import MLSFeed

/// `docs/data-model.md` lists every column a mapping may target, with its SQL type: the tables there are checked
/// against each entity's columns (`Column.listing`, `Column.agent`, `Column.office`, `Column.openHouse`,
/// `Column.media`), so a column added to the code without its line in the docs fails.
@Suite struct DataModelDocTests {
    /// The package root, two folders above this file's folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../..").standardizedFileURL

    /// Column name → the type cell of its row in the `### heading` section's first table.
    static func documentedColumns(under heading: String) throws -> [String: String] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/data-model.md"), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "### \(heading)") else { return [:] }
        var columns: [String: String] = [:]
        var inTable = false
        for line in lines[(start + 1)...] {
            if line.hasPrefix("#") { break }
            guard line.hasPrefix("|") else {
                if inTable { break }
                continue
            }
            inTable = true
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 3, cells[1].hasPrefix("`"), cells[1].hasSuffix("`") else { continue }
            columns[String(cells[1].dropFirst().dropLast())] = cells[2].replacingOccurrences(of: "`", with: "")
        }
        return columns
    }

    @Test(arguments: Entity.allCases.map { ($0, $0.table) })
    func everyColumnIsDocumentedWithItsType(entity: Entity, heading: String) throws {
        let documented = try Self.documentedColumns(under: heading)
        #expect(!documented.isEmpty, "docs/data-model.md has no table under ### \(heading)")
        for column in entity.columns {
            let type = try #require(documented[column.name],
                                    "docs/data-model.md: \(heading) lacks the column \(column.name)")
            #expect(type.hasPrefix(column.type.rawValue),
                    "docs/data-model.md: \(heading).\(column.name) is \(type), the code says \(column.type.rawValue)")
        }
        let extra = Set(documented.keys).subtracting(entity.columns.map(\.name))
        #expect(extra.isEmpty, "docs/data-model.md: \(heading) lists columns a mapping cannot target: \(extra)")
    }
}
