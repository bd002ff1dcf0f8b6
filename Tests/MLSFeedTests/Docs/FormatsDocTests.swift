import Foundation
import Testing

/// `docs/formats.md` describes the servlet vocabulary of `triples` feeds: its table lists exactly the keys the
/// shipped `servlet-triples.yaml` mapping reads.
@Suite struct FormatsDocTests {
    @Test func servletTableListsTheKeysTheShippedMappingReads() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../..")
        let doc = try String(contentsOf: root.appendingPathComponent("docs/formats.md"), encoding: .utf8)
        let section = doc.components(separatedBy: "\n### The servlet vocabulary\n").dropFirst().first?
            .components(separatedBy: "\n#").first ?? ""
        var documented = Set<String>()
        for row in section.split(separator: "\n") where row.hasPrefix("| `") {
            let keys = row.split(separator: "|")[0]
            for key in keys.split(separator: ",") {
                documented.insert(key.trimmingCharacters(in: CharacterSet(charactersIn: " `")))
            }
        }
        let mapping = try String(contentsOf: root.appendingPathComponent("pipelines/mappings/servlet-triples.yaml"),
                                 encoding: .utf8)
        let read = Set(mapping.matches(of: /from: ([a-z_]+)/).map { String($0.output.1) })
        #expect(!read.isEmpty)
        #expect(documented.subtracting(read).isEmpty, "documented but not read: \(documented.subtracting(read))")
        #expect(read.subtracting(documented).isEmpty, "read but not documented: \(read.subtracting(documented))")
    }
}
