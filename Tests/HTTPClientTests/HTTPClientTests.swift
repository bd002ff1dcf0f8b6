import Foundation
import HTTPClient
import Testing

/// The libcurl client against `Fixtures/server.py` on 127.0.0.1 (one per test process).
@Suite struct HTTPClientTests {
    /// The server's port.
    static let port: Result<Int, any Error> = Result { try startServer() }

    nonisolated(unsafe) private static var process: Process?
    nonisolated(unsafe) private static var stdinPipe: Pipe?

    private static func startServer() throws -> Int {
        let script = try #require(Bundle.module.url(forResource: "server.py", withExtension: nil,
                                                    subdirectory: "Fixtures"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        Self.process = process
        Self.stdinPipe = input
        atexit { HTTPClientTests.process?.terminate() }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { break }
            line += more
        }
        return try #require(Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    let base: String

    init() throws {
        base = "http://127.0.0.1:\(try Self.port.get())"
    }

    /// `perform` into memory (64 KiB at most) with a 5 s read timeout.
    func fetch(_ path: String, method: HTTPRequest.Method = .get, headers: [(name: String, value: String)] = [],
               body: [UInt8]? = nil, maxRedirects: Int = 5, limit: Int = 1 << 16, carriesCredentials: Bool = false)
        throws(HTTPClientError) -> HTTPResponse {
        let request = HTTPRequest(method: method, url: base + path, headers: headers, body: body, connectTimeout: 5,
                                  readTimeout: 5, maxRedirects: maxRedirects, carriesCredentials: carriesCredentials)
        return try HTTPClient().perform(request, into: .memory(limit: limit), shouldStop: { false })
    }

    static func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test func getSendsTheHeadersGiven() throws {
        let response = try fetch("/echo", headers: [("User-Agent", "mlsfeed"), ("X-Empty", "")])
        #expect(response.status == 200)
        let lines = Self.text(response).split(separator: "\n").map(String.init)
        #expect(lines.first == "GET /echo")
        #expect(lines.contains("user-agent: mlsfeed"))
        #expect(lines.contains("x-empty: "))
        #expect(response.bodyBytes == Int64(response.body.count))
        #expect(!response.isCutShort)
    }

    @Test func postSendsItsFormBody() throws {
        let form = Array("grant_type=client_credentials&scope=api".utf8)
        let response = try fetch("/echo", method: .post,
                                 headers: [("Content-Type", "application/x-www-form-urlencoded")], body: form)
        let text = Self.text(response)
        #expect(text.hasPrefix("POST /echo\n"))
        #expect(text.contains("content-length: \(form.count)\n"))
        #expect(!text.contains("expect:"))
        #expect(text.hasSuffix("\n\ngrant_type=client_credentials&scope=api"))
    }

    @Test func headersAreCaseInsensitiveAndMayRepeat() throws {
        let response = try fetch("/twice")
        #expect(response.headers.values("x-VALUE") == ["one", "two"])
        #expect(response.headers["X-OTHER"] == "three")
        #expect(response.headers["missing"] == nil)
        #expect(response.contentLength == 2)
    }

    @Test func redirectsAreFollowedUpToTheLimit() throws {
        let followed = try fetch("/redirect/2")
        #expect(followed.status == 200)
        #expect(Self.text(followed).hasPrefix("GET /echo\n"))
        // The 302's headers are not mixed into the final response's.
        #expect(followed.headers["Location"] == nil)
        #expect(try fetch("/redirect/2", maxRedirects: 0).status == 302)
        #expect(throws: HTTPClientError.local("too many redirects (Maximum (1) redirects followed)")) {
            _ = try fetch("/redirect/3", maxRedirects: 1)
        }
    }

    @Test func aRequestWithCredentialsIsNotRedirectedToAnotherOrigin() throws {
        let port = try Self.port.get()
        let elsewhere = "http%3A%2F%2Flocalhost%3A\(port)%2Fecho"
        #expect(throws: HTTPClientError.local("refused a redirect to http://localhost:\(port), another origin than "
            + "http://127.0.0.1:\(port): the request carries credentials, which are sent to their own origin only")) {
            _ = try fetch("/goto?to=\(elsewhere)", headers: [("Authorization", "Bearer tok-123456")])
        }
        // Without credentials the same redirect is followed.
        #expect(Self.text(try fetch("/goto?to=\(elsewhere)")).contains("host: localhost:\(port)\n"))
        // Within the origin the credentials go along.
        let same = try fetch("/goto?to=%2Fecho", headers: [("X-Api-Key", "k3y")], carriesCredentials: true)
        #expect(Self.text(same).contains("x-api-key: k3y\n"))
    }

    @Test(arguments: [(303, "GET"), (302, "GET"), (301, "GET"), (307, "POST"), (308, "POST")])
    func aRedirectedPostBecomesAGetExceptAfter307And308(status: Int, method: String) throws {
        let response = try fetch("/goto?to=%2Fecho&status=\(status)", method: .post, body: Array("a=1".utf8))
        #expect(response.status == 200)
        #expect(Self.text(response).hasPrefix("\(method) /echo\n"))
        #expect(Self.text(response).hasSuffix(method == "POST" ? "\n\na=1" : "\n\n"))
    }

    @Test func errorStatusesAreResponses() throws {
        let response = try fetch("/status/503")
        #expect(response.status == 503)
        #expect(Self.text(response) == "status 503")
    }

    @Test func aBodyCutShortIsReported() throws {
        let response = try fetch("/cut")
        #expect(response.status == 200)
        #expect(response.bodyBytes == 10)
        #expect(response.contentLength == 100)
        #expect(response.cutShort == "transfer closed with 90 bytes remaining to read")
    }

    @Test func theMemorySinkHasACap() throws {
        #expect(try fetch("/bytes/1000", limit: 1000).body.count == 1000)
        #expect(throws: HTTPClientError.local("the response body is larger than 999 bytes")) {
            _ = try fetch("/bytes/1000", limit: 999)
        }
    }

    @Test func theFileSinkGetsTheBody() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("client-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        let request = HTTPRequest(url: base + "/bytes/3000000")
        let response = try HTTPClient().perform(request, into: .file(handle), shouldStop: { false })
        #expect(response.bodyBytes == 3_000_000)
        #expect(response.body.isEmpty)
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(written == Data(repeating: UInt8(ascii: "x"), count: 3_000_000))
    }

    @Test func oneClientServesManyRequests() throws {
        let client = try HTTPClient()
        for size in [10, 0, 70000] {
            let response = try client.perform(HTTPRequest(url: base + "/bytes/\(size)"), into: .memory(limit: 1 << 20),
                                              shouldStop: { false })
            #expect(response.body.count == size)
        }
    }

    @Test func aStalledBodyHitsTheReadTimeout() throws {
        let request = HTTPRequest(url: base + "/stall", connectTimeout: 5, readTimeout: 0.3)
        #expect(throws: HTTPClientError.transient("no data for 0.3 s (read timeout) after 5 bytes")) {
            _ = try HTTPClient().perform(request, into: .memory(limit: 1000), shouldStop: { false })
        }
    }

    /// `shouldStop` is asked at least every 50 ms: a stalled transfer ends soon after it says yes.
    @Test func shouldStopEndsAStalledTransfer() throws {
        let stopAt = ContinuousClock.now + .milliseconds(300)
        let request = HTTPRequest(url: base + "/stall", connectTimeout: 5, readTimeout: 60)
        let started = ContinuousClock.now
        #expect(throws: HTTPClientError.cancelled) {
            _ = try HTTPClient().perform(request, into: .memory(limit: 1000), shouldStop: { .now >= stopAt })
        }
        #expect(ContinuousClock.now - started < .milliseconds(600))
    }

    @Test func aRefusedConnectionIsTransient() throws {
        let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 ? getsockname(socket, $0, &length) : -1
            }
        }
        close(socket)
        let request = HTTPRequest(url: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/", connectTimeout: 5)
        #expect(throws: HTTPClientError.transient("cannot connect to the host (connection refused)")) {
            _ = try HTTPClient().perform(request, into: .memory(limit: 10), shouldStop: { false })
        }
    }

    @Test(arguments: [
        ("file:///etc/passwd", [(name: String, value: String)](), HTTPClientError.local("not an http(s) URL")),
        ("http://127.0.0.1:1/", [("X-Bad", "a\r\nInjected: yes")], .local("invalid request header \"X-Bad\"")),
        ("http://127.0.0.1:1/", [("Bad:Name", "v")], .local("invalid request header \"Bad:Name\"")),
    ])
    func refusedRequests(url: String, headers: [(name: String, value: String)], expected: HTTPClientError) {
        #expect(throws: expected) {
            _ = try HTTPClient().perform(HTTPRequest(url: url, headers: headers), into: .memory(limit: 10),
                                         shouldStop: { false })
        }
    }

    @Test func aStopRequestedBeforehandSendsNothing() {
        #expect(throws: HTTPClientError.cancelled) {
            _ = try HTTPClient().perform(HTTPRequest(url: base + "/echo"), into: .memory(limit: 10),
                                         shouldStop: { true })
        }
    }
}
