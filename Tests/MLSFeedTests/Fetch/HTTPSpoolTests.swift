import Foundation
@testable import MLSFeed
import Testing

extension FetchTests {
    /// Bodies are spooled in a private directory and never left behind, whatever becomes of the fetch.
    @Suite struct HTTPSpoolTests {
        let server: FetchServer
        let quick = FetchSettings(connectTimeout: 5, readTimeout: 5, attempts: 2, backoff: 0.05, maxBackoff: 0.2)

        init() throws {
            server = try FetchServer.shared.get()
        }

        /// What a leaked body would look like in /tmp: a spool file, or URLSession's download files.
        static func leakedInTemporary() -> Set<String> {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
            return Set(names.filter { $0.hasSuffix(".spool") || $0.hasPrefix("CFNetworkDownload") })
        }

        @Test func nothingStaysBehindAfterAnyOutcome() throws {
            let spool = TestSpool()
            defer { spool.remove() }
            let before = Self.leakedInTemporary()
            var settings = quick
            settings.spoolDirectory = spool.path

            // Failed attempts.
            #expect(throws: FetchError.self) {
                _ = try open(server.url("fail/\(FetchServer.key())"), settings: settings)
            }
            #expect(spool.contents == [])
            #expect(spool.mode == 0o700)
            // Bodies cut short.
            #expect(throws: FetchError.self) {
                _ = try open(server.url("short/\(FetchServer.key())/listings.xml"), settings: settings)
            }
            #expect(spool.contents == [])
            // Success after a failed attempt: the body's file is unlinked while it is still being read.
            let source = try open(server.url("flaky/\(FetchServer.key())/\(FetchServer.bigName)"), settings: settings)
            #expect(spool.contents == [])
            #expect(try drain(source).bytes == (try server.bytes(FetchServer.bigName)))
            // Cancellation.
            let cancellation = Cancellation()
            cancellation.cancel()
            #expect(throws: CancellationError.self) {
                _ = try Fetcher.open(InputFile(location: server.url("files/listings.xml")), settings: settings,
                                     conditional: nil, cancellation: cancellation)
            }
            #expect(spool.contents == [])
            #expect(Self.leakedInTemporary() == before)
        }

        /// A spool file named for a process that is gone (killed between create and unlink) is removed; one of a
        /// live process and other files are kept.
        @Test func orphansOfDeadProcessesAreRemoved() throws {
            let spool = TestSpool()
            defer { spool.remove() }
            try FileManager.default.createDirectory(atPath: spool.path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            let finished = Process()
            finished.executableURL = URL(fileURLWithPath: "/bin/true")
            try finished.run()
            finished.waitUntilExit()
            let orphan = "\(finished.processIdentifier)-0f.spool"
            let live = "\(getpid())-0f.spool"
            for name in [orphan, live, "notes.txt"] {
                #expect(FileManager.default.createFile(atPath: "\(spool.path)/\(name)", contents: Data("x".utf8)))
            }
            var settings = quick
            settings.spoolDirectory = spool.path
            _ = try drain(try open(server.url("files/listings.xml"), settings: settings))
            #expect(spool.contents.sorted() == [live, "notes.txt"].sorted())
        }

        @Test func aDirectoryOthersMayEnterIsRefused() throws {
            let spool = TestSpool()
            defer { spool.remove() }
            try FileManager.default.createDirectory(atPath: spool.path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o755])
            var settings = quick
            settings.spoolDirectory = spool.path
            #expect(throws: FetchError("spool directory \(spool.path) has mode 755: other users may enter it "
                + "(chmod 700 \(spool.path))")) {
                _ = try open(server.url("files/listings.xml"), settings: settings)
            }
        }

        @Test(.enabled(if: geteuid() == 0, "needs root to give the directory to another user"))
        func aDirectoryOfAnotherUserIsRefused() throws {
            let spool = TestSpool()
            defer { spool.remove() }
            try FileManager.default.createDirectory(atPath: spool.path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            #expect(chown(spool.path, 65534, 65534) == 0)
            var settings = quick
            settings.spoolDirectory = spool.path
            #expect(throws: FetchError("spool directory \(spool.path) belongs to uid 65534, not to this user "
                + "(uid 0)")) {
                _ = try open(server.url("files/listings.xml"), settings: settings)
            }
        }

        @Test(.enabled(if: geteuid() == 0, "needs root to mount a small tmpfs"))
        func aFullSpoolDiskNamesTheDirectoryAndIsUnavailable() throws {
            let disk = try SmallDisk(kilobytes: 256)
            var settings = quick
            settings.spoolDirectory = disk.path + "/spool"
            let url = server.url("files/\(FetchServer.bigName)")
            let error = try #require(throws: (any Error).self) { _ = try open(url, settings: settings) }
            #expect("\(error)" == "error: \(disk.path)/spool: cannot spool GET \(url): No space left on device")
            // Exit 4: worth another run once space is freed.
            #expect(RunSummary.Failure(of: error) == .unavailable)
            // The partial body went with its unlinked file.
            #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path + "/spool") == [])
            withExtendedLifetime(disk) {}
        }

        @Test func aSymbolicLinkIsRefused() throws {
            let spool = TestSpool()
            defer { spool.remove() }
            try FileManager.default.createSymbolicLink(atPath: spool.path, withDestinationPath: "/tmp")
            var settings = quick
            settings.spoolDirectory = spool.path
            #expect(throws: FetchError("spool directory \(spool.path) is a symbolic link, not a directory")) {
                _ = try open(server.url("files/listings.xml"), settings: settings)
            }
        }
    }
}
