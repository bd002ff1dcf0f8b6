import Foundation

/// A loopback RESO Web API (OData) server (`Fixtures/fetch/odata_server.py`) with its own records, faults,
/// settings and request log, in a directory of its own.
final class ODataServer {
    let state: URL
    let port: Int
    let tls: Bool
    private let process: Process
    private let input: Pipe

    init(records: [[String: Any]], faults: [String: Int] = [:], tls: TLSFetchServer? = nil) throws {
        state = FileManager.default.temporaryDirectory.appendingPathComponent("odata-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        self.tls = tls != nil
        let script = try FetchServer.fixtures().appendingPathComponent("odata_server.py").path
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, state.path, "--watch-stdin"]
            + (tls.map { ["--tls", $0.certificateFile, $0.keyFile] } ?? [])
        let output = Pipe()
        input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let more = output.fileHandleForReading.availableData
            guard !more.isEmpty else { break }
            line += more
        }
        port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        try setRecords(records)
        try setFaults(faults)
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: state)
    }

    func url(_ path: String) -> String { "\(tls ? "https" : "http")://127.0.0.1:\(port)/\(path)" }

    func setRecords(_ records: [[String: Any]]) throws {
        try JSONSerialization.data(withJSONObject: records).write(to: state.appendingPathComponent("records.json"))
    }

    func setFaults(_ faults: [String: Int]) throws {
        try JSONSerialization.data(withJSONObject: faults).write(to: state.appendingPathComponent("faults.json"))
    }

    /// How the server behaves on every request from now on (`stop_after_pages`, `count_as_string`, ...).
    func setSettings(_ settings: [String: Any]) throws {
        try JSONSerialization.data(withJSONObject: settings)
            .write(to: state.appendingPathComponent("settings.json"))
    }

    /// The data requests so far (`GET` lines), decoded.
    var requests: [String] { log.filter { $0.hasPrefix("GET") } }

    /// The requests so far, `METHOD PATH?QUERY` decoded.
    var log: [String] {
        ((try? String(contentsOf: state.appendingPathComponent("log"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    /// What each request carried: `HOST authorization=... x-api-key=... access_token=...` (- for none).
    var received: [String] {
        ((try? String(contentsOf: state.appendingPathComponent("received"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    /// Makes the `@odata.nextLink` name `origin` (`http://localhost:PORT`) instead of this server.
    func setNextOrigin(_ origin: String) throws {
        try Data(origin.utf8).write(to: state.appendingPathComponent("next_origin"))
    }

    func release() throws {
        try Data().write(to: state.appendingPathComponent("release"))
    }
}
