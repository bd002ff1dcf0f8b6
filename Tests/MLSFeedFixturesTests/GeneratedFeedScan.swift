import Foundation
import Testing
@testable import MLSFeed
@testable import MLSFeedFixtures

/// An independent, deliberately naive reading of generated feeds for tests: string searching and splitting,
/// no dependency on the parse stage.
struct GeneratedFeedScan {
    /// Field names (the keys header or RETS columns; RESO element names are mapped back to keys for `xml`).
    var keys: [String] = []
    /// Each record's decoded values (for `xml`: key → value pairs in element order).
    var rows: [[String]] = []
    /// Each record's undecoded text (the `values` text, the `DATA` row, or the `listing` element).
    var rawRows: [String] = []

    init(path: String, format: FixtureOptions.Format = .triples) throws {
        let text = format == .resoJSON ? "" : try String(contentsOfFile: path, encoding: .utf8)
        switch format {
        case .triples:
            keys = GeneratedFeedScan.inner(text, "keys").first.map { GeneratedFeedScan.decode($0) }?
                .components(separatedBy: "|") ?? []
            for raw in GeneratedFeedScan.inner(text, "values") {
                rawRows.append(raw)
                rows.append(GeneratedFeedScan.decode(raw).components(separatedBy: "|"))
            }
        case .retsCompact:
            let columns = GeneratedFeedScan.inner(text, "COLUMNS").first ?? ""
            keys = Array(columns.components(separatedBy: "\t").dropFirst().dropLast())
            for raw in GeneratedFeedScan.inner(text, "DATA") {
                rawRows.append(raw)
                rows.append(Array(GeneratedFeedScan.decode(raw).components(separatedBy: "\t").dropFirst().dropLast()))
            }
        case .xml:
            keys = FixtureField.keys
            let byElement = Dictionary(uniqueKeysWithValues: zip(FixtureField.elementNames, FixtureField.keys))
            for raw in GeneratedFeedScan.inner(text, "listing") {
                rawRows.append(raw)
                var row = Array(repeating: "", count: keys.count)
                let bytes = Array(raw.utf8)
                var at = 0
                while let open = GeneratedFeedScan.find([0x3C], in: bytes, from: at),
                      let close = GeneratedFeedScan.find([0x3E], in: bytes, from: open.upperBound) {
                    let name = String(decoding: bytes[open.upperBound..<close.lowerBound], as: UTF8.self)
                    guard let end = GeneratedFeedScan.find(Array("</\(name)>".utf8), in: bytes, from: close.upperBound)
                    else { break }
                    if let key = byElement[name], let i = keys.firstIndex(of: key) {
                        let content = String(decoding: bytes[close.upperBound..<end.lowerBound], as: UTF8.self)
                        row[i] = GeneratedFeedScan.decode(content)
                    }
                    at = end.upperBound
                }
                rows.append(row)
            }
        case .resoJSON:
            keys = FixtureField.keys
            for file in GeneratedFeedScan.jsonFiles(path) {
                let text = try String(contentsOfFile: file, encoding: .utf8)
                for line in text.split(separator: "\n") where line.hasPrefix("{\"ListingKey\"") {
                    let raw = line.hasSuffix(",") ? String(line.dropLast()) : String(line)
                    rawRows.append(raw)
                    let object = try #require(
                        try JSONSerialization.jsonObject(with: Data(raw.utf8)) as? [String: Any])
                    var row = Array(repeating: "", count: keys.count)
                    row[FixtureField.mlsNumber.rawValue] = object["ListingId"] as? String ?? "?"
                    row[FixtureField.status.rawValue] = object["StandardStatus"] as? String ?? "?"
                    row[FixtureField.modified.rawValue] = object["ModificationTimestamp"] as? String ?? "?"
                    row[FixtureField.listPrice.rawValue] = GeneratedFeedScan.jsonToken(raw, "ListPrice")
                    row[FixtureField.city.rawValue] = object["City"] as? String ?? ""
                    rows.append(row)
                }
            }
        case .syndication:
            keys = FixtureField.keys
            for raw in GeneratedFeedScan.inner(text, "Listing") {
                rawRows.append(raw)
                var row = Array(repeating: "", count: keys.count)
                func first(_ name: String) -> String {
                    GeneratedFeedScan.inner(raw, name).first.map { GeneratedFeedScan.decode($0) } ?? ""
                }
                row[FixtureField.mlsNumber.rawValue] = first("MlsNumber")
                row[FixtureField.status.rawValue] = first("ListingStatus")
                row[FixtureField.modified.rawValue] = first("ModificationTimestamp")
                row[FixtureField.city.rawValue] = first("commons:City")
                let bytes = Array(raw.utf8)
                let priceTag = Array("<ListPrice currencyCode=\"USD\">".utf8)
                if let open = GeneratedFeedScan.find(priceTag, in: bytes, from: 0),
                   let close = GeneratedFeedScan.find(Array("</ListPrice>".utf8), in: bytes, from: open.upperBound) {
                    row[FixtureField.listPrice.rawValue] = GeneratedFeedScan.decode(
                        String(decoding: bytes[open.upperBound..<close.lowerBound], as: UTF8.self))
                }
                rows.append(row)
            }
        }
    }

    /// The JSON files of a `reso-json` feed: the pages of a directory in name order, or the file itself.
    static func jsonFiles(_ path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return [path]
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { $0.hasPrefix("page-") }.sorted().map { path + "/" + $0 }
    }

    /// The source text of a member's value in a one-line JSON object (a string without its quotes), read naively.
    static func jsonToken(_ line: String, _ key: String) -> String {
        let bytes = Array(line.utf8)
        guard let at = find(Array("\"\(key)\":".utf8), in: bytes, from: 0) else { return "" }
        var end = at.upperBound
        if bytes[end] == UInt8(ascii: "\"") {
            end += 1
            while bytes[end] != UInt8(ascii: "\"") { end += 1 }
            return String(decoding: bytes[(at.upperBound + 1)..<end], as: UTF8.self)
        }
        while end < bytes.count && bytes[end] != UInt8(ascii: ",") && bytes[end] != UInt8(ascii: "}") { end += 1 }
        return String(decoding: bytes[at.upperBound..<end], as: UTF8.self)
    }

    /// Seconds since 1970 UTC of any timestamp spelling the generator writes: naive local (ISO or US, San Diego
    /// time), UTC with `Z` and 0-7 fraction digits, or local with milliseconds and an offset.
    static func instant(_ raw: String) -> Double {
        if raw.contains("/") { return instant(GenerateFeedTests.sortable(raw).replacing(" ", with: "T")) }
        let chars = Array(raw)
        func number(_ range: Range<Int>) -> Int { Int(String(chars[range]))! }
        let local = FixtureClock.days(number(0..<4), number(5..<7), number(8..<10)) * 86400
            + number(11..<13) * 3600 + number(14..<16) * 60 + number(17..<19)
        var i = 19
        var fraction = 0.0
        if i < chars.count && chars[i] == "." {
            var end = i + 1
            while end < chars.count && chars[end].isNumber { end += 1 }
            fraction = Double("0" + String(chars[i..<end]))!
            i = end
        }
        if i == chars.count { return Double(local - FixtureClock.offset(local)) + fraction }
        if chars[i] == "Z" { return Double(local) + fraction }
        let sign = chars[i] == "-" ? -1 : 1
        let offset = sign * (number((i + 1)..<(i + 3)) * 3600 + number((i + 4)..<(i + 6)) * 60)
        return Double(local - offset) + fraction
    }

    /// The text between every `<name>` and its `</name>` (no nesting of the same name in generated feeds).
    static func inner(_ text: String, _ name: String) -> [String] {
        let bytes = Array(text.utf8)
        var out: [String] = []
        var at = 0
        while let open = find(Array("<\(name)>".utf8), in: bytes, from: at),
              let close = find(Array("</\(name)>".utf8), in: bytes, from: open.upperBound) {
            out.append(String(decoding: bytes[open.upperBound..<close.lowerBound], as: UTF8.self))
            at = close.upperBound
        }
        return out
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Range<Int>? {
        guard let head = needle.first, bytes.count >= needle.count else { return nil }
        var i = start
        let last = bytes.count - needle.count
        while i <= last {
            if bytes[i] == head {
                var j = 1
                while j < needle.count && bytes[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i..<(i + needle.count) }
            }
            i += 1
        }
        return nil
    }

    /// CDATA unwrapped and the predefined entities decoded.
    static func decode(_ raw: String) -> String {
        let bytes = Array(raw.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        let cdataOpen = Array("<![CDATA[".utf8), cdataClose = Array("]]>".utf8)
        let entities: [([UInt8], UInt8)] = [
            (Array("&lt;".utf8), 0x3C), (Array("&gt;".utf8), 0x3E), (Array("&quot;".utf8), 0x22),
            (Array("&apos;".utf8), 0x27), (Array("&amp;".utf8), 0x26),
        ]
        var i = 0
        outer: while i < bytes.count {
            if bytes[i] == 0x3C, let open = find(cdataOpen, in: bytes, from: i), open.lowerBound == i,
               let close = find(cdataClose, in: bytes, from: open.upperBound) {
                out.append(contentsOf: bytes[open.upperBound..<close.lowerBound])
                i = close.upperBound
                continue
            }
            if bytes[i] == 0x26 {
                for (name, byte) in entities where i + name.count <= bytes.count
                    && Array(bytes[i..<(i + name.count)]) == name {
                    out.append(byte)
                    i += name.count
                    continue outer
                }
            }
            out.append(bytes[i])
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    func value(_ row: [String], _ key: String) -> String {
        guard let i = keys.firstIndex(of: key), i < row.count else { return "" }
        return row[i]
    }
}

/// A fresh temporary directory for one test.
func generateTemporaryDirectory() throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlsfeed-gen-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}

/// The repository root: the nearest directory above this file holding `pipelines/data`.
func generateRepositoryRoot(_ file: String = #filePath) -> String {
    var url = URL(fileURLWithPath: file).deletingLastPathComponent()
    while url.path != "/" {
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("pipelines/data").path) { return url.path }
        url = url.deletingLastPathComponent()
    }
    return FileManager.default.currentDirectoryPath
}
