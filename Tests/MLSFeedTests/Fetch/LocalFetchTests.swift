import Digest
import Foundation
import Glibc
import MLSFeed
import Testing

extension FetchTests {
    @Suite struct LocalFetchTests {
        static func path(_ name: String) throws -> String {
            try FetchServer.fixtures().appendingPathComponent(name).path
        }

        static func fileBytes(_ path: String) throws -> [UInt8] {
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        }

        @Test func plainFileIsReadWithItsIdentity() throws {
            let path = try Self.path("listings.xml")
            let source = try open(path)
            #expect(source.location == path)
            let (bytes, _) = try drain(source)
            let expected = try Self.fileBytes(path)
            #expect(bytes == expected)
            #expect(source.identity == InputIdentity(location: path, bytes: Int64(expected.count),
                                                     sha256: SHA256.hex(expected)))
            #expect(try source.next() == nil)
        }

        /// The .gz streams out as the plain file's bytes; the identity is that of the compressed file as stored.
        @Test(arguments: ["listings.xml.gz", "gzipped-content.xml", "two-members.xml.gz"])
        func gzipIsDecompressedByMagicBytes(name: String) throws {
            let path = try Self.path(name)
            let source = try open(path)
            let (bytes, _) = try drain(source)
            let plain = try Self.fileBytes(try Self.path("listings.xml"))
            #expect(bytes == plain)
            #expect(SHA256.hex(bytes) == SHA256.hex(plain))
            let raw = try Self.fileBytes(path)
            #expect(source.identity.sha256 == SHA256.hex(raw))
            #expect(source.identity.bytes == Int64(raw.count))
        }

        @Test func gzNameWithPlainContentIsReadAsIs() throws {
            let path = try Self.path("plain-named.xml.gz")
            let (bytes, _) = try drain(try open(path))
            #expect(bytes == (try Self.fileBytes(try Self.path("listings.xml"))))
        }

        @Test func corruptGzipFailsClearly() throws {
            let path = try Self.path("corrupt.xml.gz")
            let message = "\(path): not a valid gzip file: corrupt data (invalid distance too far back)"
            #expect(throws: FetchError(message)) {
                _ = try drain(try open(path))
            }
        }

        @Test func truncatedGzipFailsClearly() throws {
            let path = try Self.path("truncated.xml.gz")
            #expect(throws: FetchError("\(path): gzip data ends early (truncated file?) after 277 compressed bytes")) {
                _ = try drain(try open(path))
            }
        }

        /// A multi-chunk gzip (≈3 MiB out of far fewer compressed bytes) comes out in whole 1 MiB chunks.
        @Test func bigGzipStreamsInWholeChunks() throws {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlsfeed-gz-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let plain = FetchServer.makeBigFeed()
            try plain.write(to: dir.appendingPathComponent("big.xml"))
            let gzip = Process()
            gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            gzip.arguments = ["gzip", "-k", dir.appendingPathComponent("big.xml").path]
            try gzip.run()
            gzip.waitUntilExit()
            let source = try open(dir.appendingPathComponent("big.xml.gz").path)
            let (bytes, chunks) = try drain(source)
            #expect(bytes == [UInt8](plain))
            #expect(chunks.dropLast().allSatisfy { $0 == Fetcher.chunkSize })
            #expect(chunks.count == (plain.count + Fetcher.chunkSize - 1) / Fetcher.chunkSize)
        }

        /// A pipe gives its bytes in short reads (a FIFO written 4,099 bytes at a time): the chunks still come out
        /// whole, and the identity counts and hashes every byte.
        @Test func pipeIsReadInWholeChunks() throws {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mlsfeed-fifo-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let fifo = dir.appendingPathComponent("feed.xml").path
            try #require(mkfifo(fifo, 0o600) == 0)
            let plain = [UInt8](FetchServer.makeBigFeed())
            let writer = Thread {
                let descriptor = Glibc.open(fifo, O_WRONLY)
                var offset = 0
                while descriptor >= 0 && offset < plain.count {
                    let n = plain[offset..<min(plain.count, offset + 4_099)].withUnsafeBytes {
                        write(descriptor, $0.baseAddress, $0.count)
                    }
                    if n <= 0 { break }
                    offset += n
                }
                close(descriptor)
            }
            writer.start()
            let source = try open(fifo)
            let (bytes, chunks) = try drain(source)
            #expect(bytes == plain)
            #expect(chunks.dropLast().allSatisfy { $0 == Fetcher.chunkSize })
            #expect(chunks.count == (plain.count + Fetcher.chunkSize - 1) / Fetcher.chunkSize)
            #expect(source.identity == InputIdentity(location: fifo, bytes: Int64(plain.count),
                                                     sha256: SHA256.hex(plain)))
        }

        @Test func missingFileFails() {
            #expect(throws: FetchError("/nonexistent/feed.xml.gz: no such file or directory")) {
                _ = try open("/nonexistent/feed.xml.gz")
            }
        }

        @Test func identityOfAFileWithoutParsing() throws {
            let path = try Self.path("listings.xml.gz")
            let identity = try Fetcher.identity(of: InputFile(location: path))
            #expect(identity.sha256 == SHA256.hex(try Self.fileBytes(path)))
        }

        @Test(arguments: ["http://127.0.0.1:8080/feed.xml", "HTTPS://vendor.example.com/TextCommandServlet?a=b"])
        func urlInputsResolveToThemselves(url: String) throws {
            #expect(try InputLocator.resolve(url) == [InputFile(location: url)])
        }

        @Test func urlDisplayNameHidesThePassword() {
            #expect(InputFile(location: "https://u:pw1234@h/feed.xml").displayName == "https://u:***@h/feed.xml")
        }
    }
}
