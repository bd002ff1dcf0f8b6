import Foundation
import Testing
@testable import MLSFeed

extension ResoWebAPITests {
    /// Where a test's `@odata.nextLink` leads: the server's port under the name `localhost` (another host than
    /// 127.0.0.1), or a second server on another port of 127.0.0.1.
    enum OtherOrigin: String, CaseIterable, Sendable {
        case localhost
        case otherPort
    }

    /// The credentials a source sends with every page, as `source.http.auth`.
    static let credentials: [String: String] = [
        "bearer": "",  // the OAuth2 token of the server's token route (`oauth2(_:)`)
        "header": "{ api_key: { header: X-Api-Key, value: k3y-abcdef } }",
        "query": "{ api_key: { query: access_token, value: k3y-abcdef } }",
    ]

    /// A dry run of the pipeline (no database: the refusal happens in the fetch).
    static func dryRun(_ pipeline: URL) throws -> RunSummary {
        let config = try PipelineConfig.load(path: pipeline.path, project: ProjectConfig(), environment: environment)
        var options = RunOptions()
        options.dryRun = true
        return try PipelineRunner(config: config, options: options).run()
    }

    @Test(arguments: OtherOrigin.allCases, ["bearer", "header", "query"])
    func aNextLinkToAnotherOriginFailsTheRunAndGetsNoCredential(other: OtherOrigin, credential: String) throws {
        let server = try ODataServer(records: Self.market)
        let second = try ODataServer(records: Self.market)
        let origin = other == .localhost ? "http://localhost:\(server.port)" : "http://127.0.0.1:\(second.port)"
        try server.setNextOrigin(origin)
        let auth = Self.credentials[credential].flatMap { $0.isEmpty ? nil : $0 }
        let summary = try Self.dryRun(try Self.pipeline(server, auth: auth))
        #expect(summary.status == .failed)
        #expect(summary.failure == .input)
        let query = credential == "query" ? "&access_token=***" : ""
        #expect(summary.error == "error: \(server.url("odata/Property"))?%24filter=ModificationTimestamp%20ge%20"
            + "2026-01-01T00%3A00%3A00Z&%24expand=ListAgent&%24top=2"
            + "&%24orderby=ModificationTimestamp%2CListingId\(query): "
            + "refused the @odata.nextLink of page 1: it leads to \(origin), another origin than the configured "
            + "http://127.0.0.1:\(server.port), and credentials are sent to their own origin only")
        // The first page went to the configured origin with its credential; nothing went anywhere else.
        #expect(server.received.count == (credential == "bearer" ? 2 : 1), "\(server.received)")
        #expect(server.received.allSatisfy { $0.hasPrefix("127.0.0.1:\(server.port) ") }, "\(server.received)")
        #expect(second.received.isEmpty, "\(second.received)")
        #expect(!(summary.error ?? "").contains("k3y-abcdef") && !(summary.error ?? "").contains("tok-"))
    }

    @Test func aNextLinkWithinTheOriginIsFollowedWithItsCredential() throws {
        let server = try ODataServer(records: Self.market)
        // The same origin with its scheme in capitals is still the origin.
        try server.setNextOrigin("HTTP://127.0.0.1:\(server.port)")
        let summary = try Self.dryRun(try Self.pipeline(server, auth: Self.credentials["header"]))
        #expect(summary.status == .succeeded, "\(summary.error ?? "")")
        #expect(summary.read == 5)
        #expect(server.received == Array(repeating: "127.0.0.1:\(server.port) authorization=- x-api-key=k3y-abcdef "
                                         + "access_token=-", count: 3))
    }
}
