import Foundation
import Testing

/// `server.py` over HTTPS (one per test process), serving the same files as `FetchServer`, with a certificate for
/// 127.0.0.1 and localhost signed by a CA that the tests generate with `openssl` (and no system store trusts).
struct TLSFetchServer: Sendable {
    let port: Int
    /// The test CA's certificate (PEM), to trust through `source.http.ca_file`.
    let caFile: String
    /// The server's certificate and key (PEM), for other test servers that speak HTTPS.
    let certificateFile: String
    let keyFile: String

    static let shared: Result<TLSFetchServer, any Error> = Result { try start() }

    /// `https://127.0.0.1:PORT/path`.
    func url(_ path: String) -> String { "https://127.0.0.1:\(port)/\(path)" }

    nonisolated(unsafe) private static var process: Process?
    nonisolated(unsafe) private static var stdinPipe: Pipe?

    /// Where the keys and certificates live while the tests run (removed at exit).
    private static var directory: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("mlsfeed-tls-\(getpid())")
    }

    private static func start() throws -> TLSFetchServer {
        let files = try FetchServer.shared.get()
        let dir = directory
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        atexit {
            TLSFetchServer.process?.terminate()
            try? FileManager.default.removeItem(at: TLSFetchServer.directory)
        }
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try openssl(["req", "-x509"] + key + ["-keyout", path("ca.key"), "-out", path("ca.pem"), "-days", "2",
                     "-subj", "/CN=mlsfeed test CA", "-addext", "basicConstraints=critical,CA:TRUE",
                     "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        try openssl(["req"] + key + ["-keyout", path("server.key"), "-out", path("server.csr"),
                     "-subj", "/CN=127.0.0.1"])
        try """
            subjectAltName=IP:127.0.0.1,DNS:localhost
            basicConstraints=CA:FALSE
            keyUsage=critical,digitalSignature
            extendedKeyUsage=serverAuth

            """.write(toFile: path("server.ext"), atomically: true, encoding: .utf8)
        try openssl(["x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
                     "-CAcreateserial", "-out", path("server.pem"), "-days", "2", "-extfile", path("server.ext")])
        let (process, input, port) = try FetchServer.launch(
            root: files.root, arguments: ["--tls", path("server.pem"), path("server.key")])
        Self.process = process
        Self.stdinPipe = input
        return TLSFetchServer(port: port, caFile: path("ca.pem"), certificateFile: path("server.pem"),
                              keyFile: path("server.key"))
    }

    /// Runs `openssl ARGUMENTS`, failing with its output unless it exits 0.
    private static func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FetchServerError(message: "openssl \(arguments.first ?? ""): \(text)")
        }
    }
}
