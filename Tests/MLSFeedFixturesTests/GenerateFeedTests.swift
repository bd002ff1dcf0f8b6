import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import MLSFeed
@testable import MLSFeedFixtures

@Suite struct GenerateFeedTests {
    /// The keys of the servlet vocabulary (docs/formats.md, "The servlet vocabulary").
    static let vocabulary = [
        "mls_number", "status", "property_type", "list_price", "orig_price", "sold_price", "list_date", "modified",
        "bedrooms", "full_baths", "half_baths", "sqft", "lot_sqft", "year_built", "street_number", "street_name",
        "unit", "city", "state", "zipcode", "county", "area", "latitude", "longitude", "public_remarks",
        "realtor_remarks", "directions", "ftr_toshow", "owner_name", "la_id", "la_first_name", "la_last_name",
        "la_car_phone", "la_phone_direct_office", "la_member_email", "lo_id", "lo_name",
    ]

    static let statusWords: Set = ["Active", "Pending", "Sold", "Expired", "Withdrawn", "A", "P", "S"]
    /// Status words of the typed formats (RESO `StandardStatus` members, Syndication `ListingStatus`).
    static let typedStatusWords: Set = ["Active", "ActiveUnderContract", "Pending", "Closed", "Expired", "Withdrawn"]

    func generate(_ listings: Int, seed: UInt64, format: FixtureOptions.Format = .triples,
                  shape: FixtureOptions.Shape = .header, dirt: DirtRates = .default,
                  in dir: String, name: String = "feed.xml") throws -> (path: String, truth: FixtureTruth) {
        var options = FixtureOptions(listings: listings, output: dir + "/" + name, format: format, shape: shape,
                                     seed: seed)
        options.dirt = dirt
        return (options.output, try FixtureGenerator.generate(options))
    }

    @Test func sameSeedSameBytesOtherSeedOtherBytes() throws {
        let dir = try generateTemporaryDirectory()
        let a = try generate(1500, seed: 7, in: dir, name: "a.xml")
        let b = try generate(1500, seed: 7, in: dir, name: "b.xml")
        let c = try generate(1500, seed: 8, in: dir, name: "c.xml")
        let bytesA = try #require(FileManager.default.contents(atPath: a.path))
        #expect(bytesA == FileManager.default.contents(atPath: b.path))
        #expect(bytesA != FileManager.default.contents(atPath: c.path))
        #expect(FileManager.default.contents(atPath: dir + "/a.truth.json")
                == FileManager.default.contents(atPath: dir + "/b.truth.json"))
        #expect(a.truth == b.truth)
        #expect(a.truth.bytes == bytesA.count)
    }

    /// Sortable `yyyy-MM-dd HH:mm:ss` from either timestamp spelling the generator writes.
    static func sortable(_ raw: String) -> String {
        if raw.contains("T") { return raw.replacingOccurrences(of: "T", with: " ") }
        let parts = raw.split(separator: " ")
        let date = parts[0].split(separator: "/")
        let time = parts[1].split(separator: ":")
        var hour = Int(time[0])! % 12
        if parts[2] == "PM" { hour += 12 }
        return "\(date[2])-\(date[0])-\(date[1]) \(FixtureClock.pad(hour)):\(time[1]):\(time[2])"
    }

    @Test(arguments: [
        (FixtureOptions.Format.triples, FixtureOptions.Shape.header), (.triples, .perRecord),
        (.retsCompact, .header), (.xml, .header), (.resoJSON, .header), (.syndication, .header),
    ])
    func truthAgreesWithAnIndependentRecount(format: FixtureOptions.Format, shape: FixtureOptions.Shape) throws {
        let dir = try generateTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (path, truth) = try generate(4000, seed: 11, format: format, shape: shape, in: dir,
                                         name: format == .resoJSON ? "feed.json" : "feed.xml")
        let words = [.resoJSON, .syndication].contains(format) ? Self.typedStatusWords : Self.statusWords
        let scan = try GeneratedFeedScan(path: path, format: format)
        #expect(scan.keys == FixtureField.keys)
        #expect(scan.rows.count == truth.records)

        var rejects: [String] = []
        var ordinalsByMLS: [String: [Int]] = [:]
        for (ordinal, row) in scan.rows.enumerated() {
            let mls = row.first ?? ""
            if row.count != scan.keys.count {
                rejects.append("\(ordinal) \(mls) count_mismatch values \(row.count), keys \(scan.keys.count)")
                continue
            }
            let price = scan.value(row, "list_price")
            if mls.isEmpty {
                rejects.append("\(ordinal)  empty_mls_number ")
            } else if Double(price.replacingOccurrences(of: "$", with: "").replacingOccurrences(of: ",", with: ""))
                        == nil {
                rejects.append("\(ordinal) \(mls) bad_list_price \(price)")
            } else {
                #expect(words.contains(scan.value(row, "status")))
                #expect(!scan.value(row, "modified").isEmpty)
                ordinalsByMLS[mls, default: []].append(ordinal)
            }
        }
        let truthRejects = truth.rejected.map { "\($0.ordinal) \($0.mlsNumber ?? "") \($0.reason) \($0.detail)" }
        #expect(rejects == truthRejects)
        #expect(truth.rejects == rejects.count)
        #expect(truth.uniqueValid == ordinalsByMLS.count)
        #expect(truth.duplicates == ordinalsByMLS.values.reduce(0) { $0 + $1.count - 1 })
        #expect(truth.records == truth.uniqueValid + truth.rejects + truth.duplicates)

        let duplicated = ordinalsByMLS.filter { $0.value.count > 1 }
        #expect(Set(duplicated.keys) == Set(truth.duplicated.map(\.mlsNumber)))
        for dup in truth.duplicated {
            #expect(duplicated[dup.mlsNumber] == dup.ordinals)
            let first = scan.rows[dup.ordinals[0]], second = scan.rows[dup.ordinals[1]]
            let t1 = GeneratedFeedScan.instant(scan.value(first, "modified"))
            let t2 = GeneratedFeedScan.instant(scan.value(second, "modified"))
            let expectedWinner = t1 > t2 ? dup.ordinals[0] : dup.ordinals[1]
            #expect(dup.winnerOrdinal == expectedWinner)
            #expect(dup.kind == (t2 > t1 ? "newer" : t2 < t1 ? "older" : "same_timestamp"))
            let winner = scan.rows[dup.winnerOrdinal]
            #expect(scan.value(winner, "modified") == dup.winnerModified)
            #expect(scan.value(winner, "list_price") == dup.winnerListPrice)
            #expect(scan.value(first, "list_price") != scan.value(second, "list_price"))
        }
        #expect(Set(truth.duplicated.map(\.kind)) == ["newer", "older", "same_timestamp"])
    }

    @Test func everyVocabularyKeyIsInTheHeaderAndExtrasReachEighty() throws {
        let dir = try generateTemporaryDirectory()
        let (path, _) = try generate(20, seed: 1, in: dir)
        let scan = try GeneratedFeedScan(path: path)
        for key in Self.vocabulary {
            #expect(scan.keys.contains(key), "missing \(key)")
        }
        #expect(scan.keys.count == 80)
        #expect(Set(scan.keys).count == 80)
        #expect(scan.keys.first == "mls_number")
        let rets = try generate(20, seed: 1, format: .retsCompact, in: dir, name: "rets.xml")
        #expect(try GeneratedFeedScan(path: rets.path, format: .retsCompact).keys == scan.keys)
    }

    @Test func valuesLookLikeTheMarket() throws {
        let dir = try generateTemporaryDirectory()
        let (path, _) = try generate(3000, seed: 5, dirt: .none, in: dir)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let scan = try GeneratedFeedScan(path: path)
        for needle in ["&amp;", "&lt;", "&quot;", "<![CDATA[", "é", "ñ", "—", "🌅", "\"", "$", "92103-"] {
            #expect(text.contains(needle), "no \(needle)")
        }
        var agents: [String: [String]] = [:]
        var priceShapes: Set<String> = []
        var timestampShapes: Set<Bool> = []
        for row in scan.rows {
            let remarks = scan.value(row, "public_remarks")
            #expect((100...600).contains(remarks.count), "remarks of \(remarks.count) characters")
            #expect(!remarks.contains("|"))
            let agent = ["la_first_name", "la_last_name", "la_car_phone", "la_member_email", "lo_id", "lo_name"]
                .map { scan.value(row, $0) }
            let id = scan.value(row, "la_id")
            if let known = agents[id] { #expect(known == agent) } else { agents[id] = agent }
            let price = scan.value(row, "list_price")
            priceShapes.insert(price.hasPrefix("$") ? "$" : price.hasSuffix(".00") ? ".00" : "plain")
            timestampShapes.insert(scan.value(row, "modified").contains("T"))
            #expect(["Single Family Residential", "Condo", "Multifamily", "Land"]
                        .contains(scan.value(row, "property_type")))
            #expect(["San Diego", "Riverside", "Orange"].contains(scan.value(row, "county")))
            if let lat = Double(scan.value(row, "latitude")), lat != 0 {
                #expect((32.4...33.7).contains(lat))
            }
        }
        #expect((100...400).contains(agents.count))
        #expect(priceShapes == ["$", ".00", "plain"])
        #expect(timestampShapes == [true, false])
        #expect(Set(scan.rows.map { scan.value($0, "status") }) == Self.statusWords)
    }

    @Test func dirtRatesWithinTolerance() throws {
        let dir = try generateTemporaryDirectory()
        let (_, truth) = try generate(20000, seed: 99, in: dir)
        func rate(_ reason: String) -> Double {
            Double(truth.rejected.filter { $0.reason == reason }.count) / 20000
        }
        #expect(abs(Double(truth.duplicates) / 20000 - 0.01) < 0.001)
        #expect(abs(rate("count_mismatch") - 0.003) < 0.0005)
        #expect(abs(rate("bad_list_price") - 0.005) < 0.0005)
        #expect(abs(rate("empty_mls_number") - 0.002) < 0.0005)
        #expect(Double(truth.rejects) / Double(truth.records) < 0.05)
    }

    @Test func noDirtMeansNoRejectsOrDuplicates() throws {
        let dir = try generateTemporaryDirectory()
        let (_, truth) = try generate(2000, seed: 3, dirt: .none, in: dir)
        #expect(truth.records == 2000)
        #expect(truth.uniqueValid == 2000)
        #expect(truth.rejected.isEmpty && truth.duplicated.isEmpty)
    }

    @Test(arguments: [
        (FixtureOptions.Format.triples, FixtureOptions.Shape.header), (.triples, .perRecord),
        (.retsCompact, .header), (.xml, .header),
    ])
    func wellFormedXML(format: FixtureOptions.Format, shape: FixtureOptions.Shape) throws {
        let dir = try generateTemporaryDirectory()
        let (path, _) = try generate(1000, seed: 21, format: format, shape: shape, in: dir)
        let lint = ["/usr/bin/xmllint", "/usr/local/bin/xmllint"].first { FileManager.default.fileExists(atPath: $0) }
        if let lint {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: lint)
            process.arguments = ["--noout", path]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let parser = try #require(XMLParser(contentsOf: URL(fileURLWithPath: path)))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    }

    @Test func unwritableOutputIsAFailure() {
        let options = FixtureOptions(listings: 5, output: "/nonexistent-dir/feed.xml")
        #expect(throws: FixtureGenerator.Failure("cannot write /nonexistent-dir/feed.xml: No such file or directory")) {
            _ = try FixtureGenerator.generate(options)
        }
    }
}
