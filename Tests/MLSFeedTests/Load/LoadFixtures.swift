import Foundation
import MLSFeed
import Postgres

/// Builders of normalized records and database snapshots for the load tests.
enum LoadFixtures {
    static let source = "sdmls"

    static func listing(_ id: String, price: String = "500000", status: String = "Active",
                        modified: String = "2026-11-01T10:00:00Z", city: String = "San Diego",
                        ordinal: Int = 0, extra: [RawField] = [], rawHash: UInt64? = nil) -> NormalizedRecord {
        let values: [String: Value] = [
            "listing_id": .text(id), "list_price": .decimal(price), "standard_status": .text(status),
            "modification_timestamp": .timestamp(modified), "city": .text(city), "bedrooms_total": .integer(3),
            "latitude": .double(32.7157), "longitude": .double(-117.1611), "listing_contract_date": .date("2026-10-01"),
            "list_agent_mls_id": .text("AG1"),
        ]
        let hash = "\(id)|\(price)|\(status)|\(modified)|\(city)|\(extra.map { "\($0.key)=\($0.value)" })"
        return NormalizedRecord(entity: .listing, values: values, extra: extra,
                                position: SourcePosition(file: "feed.xml", line: ordinal + 1, column: 1),
                                ordinal: ordinal, contentHash: hash, rawHash: rawHash)
    }

    /// A record the pipeline recognised as an unchanged copy of a stored listing: key and timestamp only.
    static func stored(_ id: String, modified: String? = "2026-11-01T10:00:00Z", ordinal: Int = 0,
                       rawHash: UInt64 = 1, in stored: StoredListings? = nil) -> NormalizedRecord {
        var values: [String: Value] = ["listing_id": .text(id)]
        if let modified { values["modification_timestamp"] = .timestamp(modified) }
        var record = NormalizedRecord(entity: .listing, values: values, extra: [],
                                      position: SourcePosition(file: "feed.xml", line: ordinal + 1, column: 1),
                                      ordinal: ordinal, rawHash: rawHash, isStored: true)
        // Its place in the stored set it was recognised against, as the validator gives it.
        if let place = stored?.index(of: rawHash) { record.storedPlace = Int32(place) }
        return record
    }

    static func agent(_ id: String, first: String = "Ann", last: String = "Smith", email: String? = nil,
                      ordinal: Int = 0) -> NormalizedRecord {
        var values: [String: Value] = ["agent_mls_id": .text(id), "first_name": .text(first), "last_name": .text(last)]
        if let email { values["email"] = .text(email) }
        return NormalizedRecord(entity: .agent, values: values, extra: [],
                                position: SourcePosition(file: "feed.xml", line: 1, column: 1), ordinal: ordinal,
                                contentHash: "\(id)|\(first)|\(last)|\(email ?? "")")
    }

    static func reject(_ key: String?, ordinal: Int = 0) -> Reject {
        Reject(entity: .listing, key: key, position: SourcePosition(file: "feed.xml", line: 7, column: 3),
               ordinal: ordinal,
               reasons: [RejectReason(field: "list_price", rawValue: "call agent", rule: "not a price")],
               raw: [RawField("ListingId", key ?? ""), RawField("ListPrice", "call agent")])
    }

    static func options(_ mode: LoadMode = .incremental, pipeline: String = "nightly", force: Bool = false,
                        earlyMergeRows: Int = LoadOptions.defaultEarlyMergeRows) -> LoadOptions {
        LoadOptions(source: source, pipeline: pipeline, mode: mode, force: force, earlyMergeRows: earlyMergeRows)
    }

    /// One run: records and rejects written in one batch each, then committed.
    @discardableResult
    static func load(_ conninfo: String, _ records: [NormalizedRecord], rejects: [Reject] = [],
                     mode: LoadMode = .incremental, force: Bool = false, asOf: String? = nil) throws -> LoadResult {
        let session = try LoadSession(conninfo: conninfo, options: options(mode, force: force))
        try session.write(records)
        try session.write(rejects: rejects)
        var totals = RunTotals(read: records.count + rejects.count, rejected: rejects.count,
                               inputs: [InputIdentity(location: "feed.xml", bytes: 100, sha256: "ab")],
                               timings: ["load": 0.5])
        totals.headerAsOf = asOf
        return try session.commit(totals)
    }

    /// The listings' content, comparable across databases (no run ids, no clock times).
    static func snapshot(_ conninfo: String) throws -> [[String?]] {
        try Connection(conninfo).execute("""
            SELECT listing_id, standard_status, list_price::text, modification_timestamp::text, city, extra::text,
                   content_hash, off_market_at IS NOT NULL AS off_market
            FROM listings ORDER BY source, listing_id
            """).rows
    }

    static func query(_ conninfo: String, _ sql: String, _ parameters: [String?] = []) throws -> [[String?]] {
        try Connection(conninfo).execute(sql, parameters).rows
    }
}
