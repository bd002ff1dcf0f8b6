import Foundation
import MLSFeed
import Testing
import YAMLConfig

extension FetchTests {
    @Suite struct FetchSettingsConfigTests {
        /// The `http:` mapping of a `source:` written to a file and read back.
        static func settings(_ yaml: String, environment: [String: String] = [:]) throws -> FetchSettings {
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("http-\(UUID().uuidString).yaml").path
            try yaml.write(toFile: path, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let root = try ConfigNode.load(path: path, environment: environment)
            return try FetchSettings(config: root["http"])
        }

        static func error(_ yaml: String) -> String {
            do {
                _ = try settings(yaml)
                return "no error"
            } catch {
                return "\(error)".components(separatedBy: ": error: ").last ?? ""
            }
        }

        @Test func defaultsWithoutHTTP() throws {
            let settings = try FetchSettings(config: nil)
            #expect(settings.params.isEmpty)
            #expect(settings.auth == nil)
            #expect(settings.paging == nil)
            #expect(settings.connectTimeout == 10)
            #expect(settings.readTimeout == 60)
            #expect(settings.attempts == 4)
            #expect(settings.backoff == 0.5)
            #expect(settings.maxBackoff == 30)
        }

        @Test func fullExample() throws {
            let settings = try Self.settings("""
                http:
                  params: { method: detailedSearch, status: "A,P", propertytype: RE }
                  auth: { basic: { user: "${MLS_USER}", password: "${MLS_PASSWORD}" } }
                  paging: { param: page, start: 1, size_param: limit, size: 500, max_pages: 1000 }
                  timeout: { connect: 10, read: 60 }
                  retries: { attempts: 4, backoff: 0.5, max_backoff: 30 }
                """, environment: ["MLS_USER": "feeduser", "MLS_PASSWORD": "s3cret"])
            #expect(settings.params.map { "\($0.0)=\($0.1)" }
                == ["method=detailedSearch", "status=A,P", "propertytype=RE"])
            #expect(settings.auth == .basic(user: "feeduser", password: "s3cret"))
            #expect(settings.paging == FetchSettings.Paging(mode: .page(param: "page"), start: 1, sizeParam: "limit",
                                                            size: 500, maxPages: 1000))
            #expect(settings.redactor.redact("s3cret") == "***")
        }

        @Test(arguments: [
            ("{ bearer: tok-1 }", FetchSettings.Auth.bearer("tok-1")),
            ("{ api_key: { header: X-Api-Key, value: k-123 } }", .apiKeyHeader(name: "X-Api-Key", value: "k-123")),
            ("{ api_key: { query: apikey, value: k-123 } }", .apiKeyQuery(name: "apikey", value: "k-123")),
        ])
        func authKinds(yaml: String, expected: FetchSettings.Auth) throws {
            #expect(try Self.settings("http:\n  auth: \(yaml)\n").auth == expected)
        }

        @Test(arguments: [
            ("{ field: M }", 300, nil),
            ("{ field: M, overlap: 0 }", 0, nil),
            ("{ field: M, overlap: 90 }", 90, nil),
            ("{ field: M, overlap: 2h, key_sweep: { every: 7d } }", 7200, 604_800),
            ("{ field: M, key_sweep: { every: 2w } }", 300, 1_209_600),
        ] as [(String, Int, Int?)])
        func replicationOverlapAndKeySweep(yaml: String, overlap: Int, every: Int?) throws {
            let replication = try #require(try Self.settings("http:\n  replication: \(yaml)\n").webAPI?.replication)
            #expect(replication.overlap == overlap)
            #expect(replication.sweepEvery == every)
        }

        @Test func offsetPagingStartsAtZero() throws {
            let yaml = "http:\n  paging: { offset_param: offset, size: 100 }\n"
            let paging = try #require(try Self.settings(yaml).paging)
            #expect(paging == FetchSettings.Paging(mode: .offset(param: "offset"), start: 0, size: 100))
        }

        @Test(arguments: [
            ("http:\n  timout: {}\n", "http.timout: unknown key \"timout\"; did you mean \"timeout\"?"),
            ("http:\n  auth: { basic: { user: u }, bearer: t }\n",
             "http.auth: expected exactly one of: basic, bearer, api_key, oauth2"),
            ("http:\n  auth: { api_key: { value: k } }\n", "http.auth.api_key: expected exactly one of: header, query"),
            ("http:\n  paging: { size: 10 }\n",
             "http.paging: expected exactly one of: param (page numbers), offset_param (offsets)"),
            ("http:\n  timeout: { read: 0 }\n", "http.timeout.read: expected seconds from 0.1 to 3600, got 0"),
            ("http:\n  retries: { attempts: 0 }\n", "http.retries.attempts: expected an integer from 1 to 100, got 0"),
            ("http:\n  retries: { attempts: many }\n", "http.retries.attempts: expected an integer, got \"many\""),
            ("http:\n  retries: { max_retry_after: 60 }\n",
             "http.retries.max_retry_after: unknown key \"max_retry_after\"; expected one of: attempts, backoff, "
                + "max_backoff"),
            ("http:\n  ca_file: \"\"\n", "http.ca_file: the CA file path is empty"),
            ("http:\n  replication: { field: M, overlap: soon }\n",
             "http.replication.overlap: expected seconds or an age like 5m, 12h or 7d, from 0s to 1d, got \"soon\""),
            ("http:\n  replication: { field: M, overlap: 2d }\n",
             "http.replication.overlap: expected seconds or an age like 5m, 12h or 7d, from 0s to 1d, got \"2d\""),
            ("http:\n  replication: { field: M, key_sweep: { every: 30m } }\n",
             "http.replication.key_sweep.every: expected seconds or an age like 5m, 12h or 7d, from 1h to 3660d, "
                + "got \"30m\""),
            ("http:\n  replication: { field: M, key_sweep: {} }\n",
             "http.replication.key_sweep: missing required key \"every\""),
        ])
        func mistakes(yaml: String, message: String) {
            #expect(Self.error(yaml) == message)
        }

        /// `ca_file` is resolved against the pipeline file's folder and must exist.
        @Test func caFileIsRelativeToThePipelineFile() throws {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: dir) }
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("certs"),
                                                    withIntermediateDirectories: true)
            try "pem".write(to: dir.appendingPathComponent("certs/ca.pem"), atomically: true, encoding: .utf8)
            let path = dir.appendingPathComponent("feed.yaml").path
            try "http:\n  ca_file: certs/ca.pem\n".write(toFile: path, atomically: true, encoding: .utf8)
            let settings = try FetchSettings(config: try ConfigNode.load(path: path, environment: [:])["http"])
            #expect(settings.caFile == dir.appendingPathComponent("certs/ca.pem").path)

            try "http:\n  ca_file: certs/missing.pem\n".write(toFile: path, atomically: true, encoding: .utf8)
            let error = try #require(throws: ConfigError.self) {
                _ = try FetchSettings(config: try ConfigNode.load(path: path, environment: [:])["http"])
            }
            let missing = dir.appendingPathComponent("certs/missing.pem").path
            #expect("\(error)" == "\(path):2:12: error: http.ca_file: CA file \"\(missing)\" does not exist")
        }
    }
}
