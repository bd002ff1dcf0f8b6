import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import MLSFeed
@testable import MLSFeedFixtures

/// `reso-json` (pages, one document, JSON Lines) and `syndication`: layout, typed values, truth, deltas.
@Suite struct GenerateTypedFormatsTests {
    func generate(_ listings: Int, seed: UInt64 = 5, format: FixtureOptions.Format, out: String,
                  pageSize: Int? = nil, jsonLines: Bool = false, dirt: DirtRates = .default) throws -> FixtureTruth {
        var options = FixtureOptions(listings: listings, output: out, format: format, seed: seed)
        options.pageSize = pageSize
        options.jsonLines = jsonLines
        options.dirt = dirt
        return try FixtureGenerator.generate(options)
    }

    func json(_ path: String) throws -> [String: Any] {
        let data = try #require(FileManager.default.contents(atPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func pagesChainThroughNextLinkAndHoldEveryRecordOnce() throws {
        let dir = try generateTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let truth = try generate(1000, format: .resoJSON, out: dir + "/pages", pageSize: 96)
        #expect(truth.pageSize == 96 && truth.pages == (truth.records + 95) / 96 && truth.jsonLines == nil)
        #expect(FileManager.default.fileExists(atPath: dir + "/pages.truth.json"))
        var name: String? = "page-0001.json"
        var seen: [String] = [], pages = 0, bytes = 0
        while let page = name {
            let object = try json(dir + "/pages/" + page)
            bytes += try #require(FileManager.default.contents(atPath: dir + "/pages/" + page)).count
            pages += 1
            let records = try #require(object["value"] as? [[String: Any]])
            #expect(object["@odata.context"] as? String == "$metadata#Property")
            #expect(object["@odata.count"] as? Int == truth.records)
            name = object["@odata.nextLink"] as? String
            #expect(records.count == (name == nil ? truth.records - 96 * (pages - 1) : 96))
            seen += records.map { $0["ListingId"] as? String ?? "?" }
        }
        #expect(pages == truth.pages)
        #expect(bytes == truth.bytes)
        #expect(seen.count == truth.records)
        let empty = truth.rejected.filter { $0.mlsNumber == nil }.count
        #expect(empty > 0 && seen.filter(\.isEmpty).count == empty)
        #expect(Set(seen).count == truth.records - truth.duplicates - (empty - 1))
        let files = try FileManager.default.contentsOfDirectory(atPath: dir + "/pages").sorted()
        #expect(files == (1...pages).map { String(format: "page-%04d.json", $0) })

        // Written again smaller: the extra pages of the first run are gone, other files stay.
        #expect(FileManager.default.createFile(atPath: dir + "/pages/notes.txt", contents: Data("keep".utf8)))
        let again = try generate(100, format: .resoJSON, out: dir + "/pages", pageSize: 96)
        #expect(again.pages == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/pages").sorted()
                == ["notes.txt", "page-0001.json", "page-0002.json"])
    }

    @Test func oneDocumentAndJSONLinesHoldTheSameRecordsAsThePages() throws {
        let dir = try generateTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pages = try generate(300, format: .resoJSON, out: dir + "/pages", pageSize: 50)
        let whole = try generate(300, format: .resoJSON, out: dir + "/feed.json")
        let lines = try generate(300, format: .resoJSON, out: dir + "/feed.jsonl", jsonLines: true)
        #expect(whole.pages == nil && lines.jsonLines == true)
        #expect(FileManager.default.fileExists(atPath: dir + "/feed.truth.json"))
        let document = try json(dir + "/feed.json")
        #expect(document["@odata.nextLink"] == nil)
        #expect((document["value"] as? [Any])?.count == whole.records)
        let text = try String(contentsOfFile: dir + "/feed.jsonl", encoding: .utf8)
        let records = text.split(separator: "\n")
        #expect(records.count == lines.records)
        for record in records {
            #expect(try JSONSerialization.jsonObject(with: Data(record.utf8)) is [String: Any])
        }
        let a = try GeneratedFeedScan(path: dir + "/pages", format: .resoJSON)
        let b = try GeneratedFeedScan(path: dir + "/feed.json", format: .resoJSON)
        let c = try GeneratedFeedScan(path: dir + "/feed.jsonl", format: .resoJSON)
        #expect(a.rawRows == b.rawRows && b.rawRows == c.rawRows)
        var same = pages
        same.pageSize = nil
        same.pages = nil
        same.bytes = whole.bytes
        #expect(same == whole)
    }

    @Test(arguments: [FixtureOptions.Format.resoJSON, .syndication])
    func sameSeedSameBytes(format: FixtureOptions.Format) throws {
        let dir = try generateTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let a = try generate(800, seed: 7, format: format, out: dir + "/a")
        let b = try generate(800, seed: 7, format: format, out: dir + "/b")
        let c = try generate(800, seed: 8, format: format, out: dir + "/c")
        let bytes = try #require(FileManager.default.contents(atPath: dir + "/a"))
        #expect(bytes == FileManager.default.contents(atPath: dir + "/b"))
        #expect(bytes != FileManager.default.contents(atPath: dir + "/c"))
        #expect(a == b && a != c && a.bytes == bytes.count)
    }

    @Test func resoValuesAreTypedAsServersSendThem() throws {
        let dir = try generateTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let truth = try generate(3000, format: .resoJSON, out: dir + "/feed.jsonl", jsonLines: true, dirt: .none)
        let lines = try String(contentsOfFile: dir + "/feed.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == truth.records)
        var priceShapes: Set<String> = [], stamps: Set<String> = [], statuses: Set<String> = []
        var agents: [String: [String]] = [:]
        var sawNull = false, sawListText = false, sawFloatInteger = false, sawEscaped = false, sawRaw = false
        for line in lines {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let price = GeneratedFeedScan.jsonToken(String(line), "ListPrice")
            priceShapes.insert(line.contains("\"ListPrice\":\"") ? "string" : price.contains(".") ? "decimal" : "int")
            let stamp = try #require(record["ModificationTimestamp"] as? String)
            stamps.insert(stamp.hasSuffix("Z") ? "Z\(stamp.count)" : "local\(stamp.count)")
            statuses.insert(try #require(record["StandardStatus"] as? String))
            #expect(record["ListingKey"] as? String == "3yd-SDMLS-" + (record["ListingId"] as? String ?? "?"))
            sawNull = sawNull || record["UnitNumber"] is NSNull
            sawListText = sawListText || record["Appliances"] is String
            sawFloatInteger = sawFloatInteger || line.contains("\"BedroomsTotal\":3.0")
            sawEscaped = sawEscaped || line.contains("\\u00e9")
            sawRaw = sawRaw || line.contains("é")
            if let agent = record["ListAgent"] as? [String: String] {
                #expect(agent["MemberMlsId"] == record["ListAgentMlsId"] as? String)
                let id = agent["MemberMlsId"] ?? "?"
                let facts = ["MemberFirstName", "MemberLastName", "MemberEmail", "MemberMobilePhone"]
                    .map { agent[$0] ?? "" }
                if let known = agents[id] { #expect(known == facts) } else { agents[id] = facts }
            } else {
                Issue.record("no ListAgent object")
            }
            let media = try #require(record["Media"] as? [[String: Any]])
            #expect(media.count == min(record["PhotosCount"] as? Int ?? 0, FixtureResoJSON.maxMedia))
            #expect(media.allSatisfy { ($0["MediaURL"] as? String)?.hasPrefix("https://") == true })
        }
        #expect(priceShapes == ["int", "decimal", "string"])
        #expect(stamps == ["Z20", "Z24", "Z28", "local19"])
        #expect(statuses == GenerateFeedTests.typedStatusWords)
        #expect(sawNull && sawListText && sawFloatInteger && sawEscaped && sawRaw)
        #expect((100...400).contains(agents.count))
    }

    /// The truth's UTC instants and canonical prices are what the written values mean.
    @Test(arguments: [FixtureOptions.Format.resoJSON, .syndication, .triples])
    func truthValuesAreTheLoadedMeaningOfTheWrittenOnes(format: FixtureOptions.Format) throws {
        let dir = try generateTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let truth = try generate(6000, seed: 3, format: format, out: dir + "/feed.xml")
        #expect(truth.duplicated.count == 60)
        for duplicate in truth.duplicated {
            let written = GeneratedFeedScan.instant(duplicate.winnerModified)
            #expect(written == GeneratedFeedScan.instant(duplicate.winnerModifiedUTC), "\(duplicate.winnerModified)")
            #expect(duplicate.winnerModifiedUTC.hasSuffix("Z"))
            let price = duplicate.winnerListPrice.replacing("$", with: "").replacing(",", with: "")
            #expect(Decimal(string: price) == Decimal(string: duplicate.winnerListPriceValue))
            #expect(GenerateFeedTests.typedStatusWords.contains(duplicate.winnerStandardStatus ?? "?"))
        }
        if format == .syndication {
            #expect(truth.duplicated.allSatisfy { $0.winnerModifiedUTC.count == 24 })  // with milliseconds
        }
    }

    @Test func syndicationIsNamespacedIndentedXML() throws {
        let dir = try generateTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let truth = try generate(1500, format: .syndication, out: dir + "/feed.xml")
        let path = dir + "/feed.xml"
        if let lint = ["/usr/bin/xmllint", "/usr/local/bin/xmllint"].first(where: {
            FileManager.default.fileExists(atPath: $0)
        }) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: lint)
            process.arguments = ["--noout", path]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        final class Names: NSObject, XMLParserDelegate {
            var counts: [String: Int] = [:]
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                        qualifiedName: String?, attributes: [String: String] = [:]) {
                counts["\(namespaceURI ?? "") \(name)", default: 0] += 1
            }
        }
        let names = Names()
        let parser = try #require(XMLParser(contentsOf: URL(fileURLWithPath: path)))
        parser.shouldProcessNamespaces = true
        parser.delegate = names
        #expect(parser.parse())
        let syndication = FixtureSyndication.namespace, commons = FixtureSyndication.commonsNamespace
        #expect(names.counts["\(syndication) Listings"] == 1)
        #expect(names.counts["\(syndication) Listing"] == truth.records)
        for name in ["FullStreetAddress", "City", "StateOrProvince", "PostalCode"] {
            #expect(names.counts["\(commons) \(name)"] == truth.records, "commons:\(name)")
        }
        for name in ["ListPrice", "ListingKey", "MlsNumber", "ListingStatus", "ListingCategory", "PropertyType",
                     "ModificationTimestamp", "Latitude", "Longitude"] {
            #expect(names.counts["\(syndication) \(name)"] == truth.records, "\(name)")
        }
        #expect((names.counts["\(syndication) Photo"] ?? 0) > 2 * truth.records)
        #expect((names.counts["\(syndication) Participant"] ?? 0) > truth.records)
        #expect(names.counts["\(syndication) Office"] == truth.records)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\n    <ListPrice currencyCode=\"USD\">"))
        #expect(text.contains("\n        <Role>Co-Listing</Role>"))
    }

    @Test(arguments: [(FixtureOptions.Format.resoJSON, 64), (.resoJSON, 0), (.syndication, 0)])
    func deltasChangeAddAndRemoveLikeTheOtherFormats(format: FixtureOptions.Format, pageSize: Int) throws {
        let dir = try generateTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let name = pageSize > 0 ? "base" : format == .resoJSON ? "base.jsonl" : "base.xml"
        let base = try generate(2000, seed: 3, format: format, out: dir + "/" + name,
                                pageSize: pageSize > 0 ? pageSize : nil, jsonLines: pageSize == 0)
        let options = try FixtureOptions(arguments: [
            "--delta-of", dir + "/" + name, "--seed", "8", "--output", dir + "/delta",
        ])
        let truth = try FixtureGenerator.generate(options)
        let delta = try #require(truth.delta)
        #expect(truth.format == format && truth.pageSize == base.pageSize && truth.jsonLines == base.jsonLines)
        #expect(delta.changed.count == 40 && delta.new.count == 10 && delta.withdrawn.count == 10)
        #expect(truth.records == base.records)
        func byMLS(_ path: String) throws -> [String: (raw: String, modified: String)] {
            let scan = try GeneratedFeedScan(path: path, format: format)
            var out: [String: (String, String)] = [:]
            for (row, raw) in zip(scan.rows, scan.rawRows) where !row[0].isEmpty {
                out[row[0]] = (raw, scan.value(row, "modified"))
            }
            return out
        }
        let old = try byMLS(dir + "/" + name), new = try byMLS(dir + "/delta")
        for mls in delta.withdrawn { #expect(old[mls] != nil && new[mls] == nil) }
        for mls in delta.new { #expect(old[mls] == nil && new[mls] != nil) }
        let night = GeneratedFeedScan.instant("2026-11-28T02:00:00")
        for mls in delta.changed {
            let before = try #require(old[mls]), after = try #require(new[mls])
            #expect(before.raw != after.raw)
            let modified = GeneratedFeedScan.instant(after.modified)
            #expect(modified >= night && modified < night + 86400)
        }
        let changed = Set(delta.changed), duplicated = Set(base.duplicated.map(\.mlsNumber))
        var unchanged = 0
        for (mls, row) in old where !changed.contains(mls) && !duplicated.contains(mls) {
            guard let after = new[mls] else { continue }
            #expect(after.raw == row.raw, "\(mls) changed without being listed")
            unchanged += 1
        }
        #expect(unchanged == new.count - 40 - 10 - duplicated.count)
    }

    @Test(arguments: [
        (["--format", "xml", "--page-size", "10"], "option '--page-size' needs '--format reso-json'"),
        (["--format", "syndication", "--jsonl"], "option '--jsonl' needs '--format reso-json'"),
        (["--format", "reso-json", "--page-size", "10", "--jsonl"],
         "options '--page-size' and '--jsonl' cannot be used together"),
        (["--format", "reso-json", "--page-size", "0"], "--page-size: expected a positive integer, got \"0\""),
        (["--format", "reso-json", "--jsonl=yes"], "option '--jsonl' takes no value"),
        (["--format", "json"],
         "--format: expected triples, rets-compact, xml, reso-json or syndication, got \"json\""),
    ])
    func layoutOptionsAreChecked(arguments: [String], message: String) {
        #expect(throws: FixtureOptions.UsageError(message)) {
            _ = try FixtureOptions(arguments: ["--listings", "5", "--output", "x"] + arguments)
        }
    }

    @Test func layoutOptionsParseAndADeltaTakesItsBasesLayout() throws {
        let paged = try FixtureOptions(arguments: ["--format", "reso-json", "--page-size", "500", "--listings", "9",
                                                   "--output", "p"])
        #expect(paged.format == .resoJSON && paged.pageSize == 500 && !paged.jsonLines)
        let lines = try FixtureOptions(arguments: ["--format=reso-json", "--jsonl", "--listings=9", "--output", "l"])
        #expect(lines.jsonLines && lines.pageSize == nil)
        #expect(throws: FixtureOptions.UsageError(
            "option '--page-size' cannot be used with '--delta-of': the base's truth sets it")) {
            _ = try FixtureOptions(arguments: ["--delta-of", "b", "--page-size", "5", "--output", "d"])
        }
        #expect(FixtureOptions.truthPath(for: "pages/") == "pages.truth.json")
        #expect(FixtureOptions.truthPath(for: "feed.jsonl") == "feed.truth.json")
        #expect(FixtureOptions.truthPath(for: "feed.json") == "feed.truth.json")
        #expect(FixtureOptions.truthPath(for: "feed.dat") == "feed.dat.truth.json")
    }
}
