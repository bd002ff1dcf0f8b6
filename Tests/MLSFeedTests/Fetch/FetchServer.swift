import Foundation
import HTTPClient
import Testing

/// The loopback HTTP server of the Fetch tests: `Fixtures/fetch/server.py`, one per test process, serving a
/// temporary copy of the fetch fixtures plus a generated multi-chunk feed.
struct FetchServer: Sendable {
    let port: Int
    /// The directory it serves.
    let root: String

    static let shared: Result<FetchServer, any Error> = Result { try start() }

    /// `http://127.0.0.1:PORT/path`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// The bytes of a served file.
    func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: root).appendingPathComponent(name)))
    }

    /// The text of a bookkeeping route (`count/KEY`, `log/KEY`).
    func text(_ path: String) throws -> String {
        let response = try HTTPClient().perform(HTTPRequest(url: url(path)), into: .memory(limit: 1 << 20),
                                                shouldStop: { false })
        return String(decoding: response.body, as: UTF8.self)
    }

    /// A fresh key for per-test server state.
    static func key() -> String { UUID().uuidString.lowercased() }

    /// The fixture directory inside the test bundle.
    static func fixtures() throws -> URL {
        let script = try #require(Bundle.module.url(forResource: "server.py", withExtension: nil,
                                                    subdirectory: "Fixtures/fetch"))
        return script.deletingLastPathComponent()
    }

    /// A 3 MiB triples feed: more than one chunk.
    static let bigName = "big.xml"

    nonisolated(unsafe) private static var process: Process?
    nonisolated(unsafe) private static var stdinPipe: Pipe?

    private static func start() throws -> FetchServer {
        let fixtures = try fixtures()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mlsfeed-fetch-\(getpid())")
        try? FileManager.default.removeItem(at: root)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: fixtures.path) {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name),
                                             to: root.appendingPathComponent(name))
        }
        try makeBigFeed().write(to: root.appendingPathComponent(bigName))

        let (process, input, port) = try launch(root: root.path)
        Self.process = process
        Self.stdinPipe = input
        atexit {
            FetchServer.process?.terminate()
            try? FileManager.default.removeItem(atPath: FileManager.default.temporaryDirectory
                .appendingPathComponent("mlsfeed-fetch-\(getpid())").path)
        }
        return FetchServer(port: port, root: root.path)
    }

    /// Starts `server.py` serving `root` (with `arguments` such as `--tls CERT KEY`); it exits when the returned
    /// pipe (its stdin) is closed or this process ends.
    static func launch(root: String, arguments: [String] = []) throws -> (Process, Pipe, Int) {
        let script = try fixtures().appendingPathComponent("server.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, root, "--watch-stdin"] + arguments
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { break }
            line += more
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(text) else {
            process.terminate()
            throw FetchServerError(message: "server.py printed \(text)")
        }
        return (process, input, port)
    }

    /// ≈3 MiB of header-once triples.
    static func makeBigFeed() -> Data {
        var text = "<dump>\n  <keys>mls_number|status|list_price|remarks</keys>\n"
        let remarks = String(repeating: "Ocean view, remodeled kitchen. ", count: 4)
        var n = 0
        while text.utf8.count < 3 << 20 {
            text += "  <listing><values>\(260_000_000 + n)|Active|$549,000|\(remarks)</values></listing>\n"
            n += 1
        }
        return Data((text + "</dump>\n").utf8)
    }
}

struct FetchServerError: Error {
    var message: String
}
