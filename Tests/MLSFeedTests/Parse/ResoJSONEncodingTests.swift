import Foundation
import Testing

/// A RESO JSON file in UTF-16 (as some Windows exports write it) is refused by name, with the command that
/// converts it, instead of the JSON parser's "invalid char".
@Suite struct ResoJSONEncodingTests {
    @Test(arguments: [(String.Encoding.utf16LittleEndian, "UTF-16LE", true),
                      (String.Encoding.utf16BigEndian, "UTF-16BE", false)])
    func aUTF16PageIsRefusedNamingItsEncoding(encoding: String.Encoding, name: String, byteOrderMark: Bool) throws {
        let sample = CLI.packageRoot.appendingPathComponent("pipelines/data/reso-property.json")
        let text = try String(contentsOf: sample, encoding: .utf8)
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("utf16-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: page) }
        let mark: [UInt8] = name == "UTF-16LE" ? [0xFF, 0xFE] : [0xFE, 0xFF]
        try Data((byteOrderMark ? mark : []) + Array(try #require(text.data(using: encoding))))
            .write(to: page)
        let result = try CLI.run(["run", "pipelines/reso-web-api.yaml", "--input", page.path, "--dry-run",
                                  "--quiet", "--no-progress"],
                                 environment: ["RESO_CLIENT_ID": "x", "RESO_CLIENT_SECRET": "x"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(page.path):1:1: error: JSON must be UTF-8, but this text is \(name): "
            + "convert it first (iconv -f \(name) -t UTF-8)\n"), "\(result.stderr)")
    }
}
