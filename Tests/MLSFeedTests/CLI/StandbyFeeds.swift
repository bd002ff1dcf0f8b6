import Foundation
import MLSFeedFixtures
import Postgres
import PostgresTestSupport

/// Two nights of the sample pipeline loaded on a primary through the built binary, read on its streaming standby:
/// a generated dump of 300 listings, then its next night (10% changed, 1% new, 1% gone). Between the nights, and
/// after the second, the standby has replayed everything the primary committed (`ReplicatedServer.waitForReplay`).
struct StandbyFeeds: Sendable {
    /// The database, on the primary and on the standby.
    let database: ReplicatedServer.Database
    /// The standby as mlsfeed names it in messages (`Connection.address`).
    let standbyAddress: String
    /// A listing the second night changed.
    let changed: String
    /// `mlsfeed search` calls (without `--database`) whose answers are all non-empty, drawn from that listing: mls,
    /// quick, detailed, near, agent.
    let searches: [[String]]
    /// What each search printed on the primary and on the standby after the first night.
    let firstNight: (primary: [String], standby: [String])

    /// The one load of the test process, shared by the tests that read it.
    static let loaded: Result<StandbyFeeds, any Error> = Result { try StandbyFeeds() }

    private init() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("standby-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = dir.appendingPathComponent("base.xml").path, next = dir.appendingPathComponent("next.xml").path
        _ = try FixtureGenerator.generate(FixtureOptions(listings: 300, output: base, seed: 11))
        let truth = try FixtureGenerator.generate(try FixtureOptions(arguments: [
            "--delta-of", base, "--seed", "12", "--changed", "10%", "--new", "1%", "--gone", "1%", "--output", next,
        ]))
        database = try ReplicatedServer.fresh()
        standbyAddress = try Connection(database.standby).address

        try Self.load(base, into: database.primary)
        try ReplicatedServer.waitForReplay()
        let primary = try Connection(database.primary)
        var found: (listing: String, row: [String?])?
        for listing in truth.delta?.changed ?? [] {
            let rows = try primary.execute("""
                SELECT l.street_number, l.street_name, l.city, l.latitude::text, l.longitude::text, a.last_name
                FROM listings l JOIN agents a ON a.source = l.source AND a.agent_mls_id = l.list_agent_mls_id
                WHERE l.listing_id = $1 AND l.off_market_at IS NULL AND l.street_number IS NOT NULL
                  AND l.street_name IS NOT NULL AND l.city IS NOT NULL AND l.latitude IS NOT NULL
                  AND l.longitude IS NOT NULL AND a.last_name IS NOT NULL
                """, [listing]).rows
            if let row = rows.first {
                found = (listing, row)
                break
            }
        }
        guard let found else {
            throw NightlyFeeds.CLIFailure(message: "no listing of the second night with an address and an agent")
        }
        let (listing, row) = found
        changed = listing
        let json = ["--format", "json"]
        let searches = [
            ["search", "mls", listing] + json,
            ["search", "mls", listing, "--mortgage", "down=20%,rate=6.5,years=30"] + json,
            ["search", "quick", "--street-number", row[0]!, "--street-name", String(row[1]!.prefix(3)),
             "--include-withdrawn"] + json,
            ["search", "detailed", "--city", row[2]!, "--limit", "100"] + json,
            ["search", "detailed", "--sort", "newest", "--limit", "100", "--include-withdrawn"] + json,
            ["search", "near", "--lat", row[3]!, "--lon", row[4]!, "--miles", "10", "--limit", "100"] + json,
            ["search", "agent", "--name", String(row[5]!.prefix(2))] + json,
        ]
        self.searches = searches
        let database = database
        firstNight = (try searches.map { try Self.search($0, database.primary) },
                      try searches.map { try Self.search($0, database.standby) })

        try Self.load(next, into: database.primary)
        try ReplicatedServer.waitForReplay()
    }

    /// `mlsfeed run sample --input FEED` into `database`.
    private static func load(_ feed: String, into database: String) throws {
        let result = try CLI.run(["run", "sample", "--input", feed, "--database", database, "--no-progress", "--quiet"])
        guard result.status == 0 else {
            throw NightlyFeeds.CLIFailure(message: "run of \(feed) exited \(result.status): \(result.stderr)")
        }
    }

    /// What `mlsfeed SEARCH --database DATABASE` printed; it must succeed.
    static func search(_ arguments: [String], _ database: String) throws -> String {
        let result = try CLI.run(arguments + ["--database", database])
        guard result.status == 0, result.stderr.isEmpty else {
            throw NightlyFeeds.CLIFailure(message: "\(arguments) exited \(result.status): \(result.stderr)")
        }
        return result.stdout
    }
}
