import Foundation
import Postgres
import Testing

@Suite struct LocalClusterTests {
    @Test func createsStartsReusesAndStops() throws {
        let directory = NSTemporaryDirectory() + "mlsfeed cluster-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cluster = LocalCluster(directory: directory, fsync: false)
        defer { try? cluster.stop(immediately: true) }
        #expect(!cluster.isRunning)

        // Two starts at once (as two processes would): both return the same conninfo, one server runs.
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            results.append(Result { try cluster.start() })
        }
        let conninfos = try results.all.map { try $0.get() }
        #expect(conninfos == [cluster.conninfo, cluster.conninfo])
        #expect(cluster.conninfo == "host='\(directory)/socket' dbname=postgres user=postgres port=5432")
        #expect(cluster.isRunning)

        let connection = try Connection(cluster.conninfo)
        try connection.execute("CREATE TABLE kept (x int)")
        #expect(try connection.execute("SHOW listen_addresses").rows == [[""]])
        #expect(try connection.execute("SHOW fsync").rows == [["off"]])

        try cluster.stop()
        #expect(!cluster.isRunning)
        try cluster.stop()  // stopping a stopped cluster is fine

        // Started again, the existing cluster is reused with its data.
        #expect(try cluster.start() == cluster.conninfo)
        #expect(try cluster.start() == cluster.conninfo)
        let again = try Connection(cluster.conninfo)
        #expect(try again.execute("SELECT count(*) FROM kept").rows == [["0"]])
    }

    @Test func rejectsASocketPathTooLong() throws {
        let directory = NSTemporaryDirectory() + String(repeating: "d", count: 100)
        let error = try #require(throws: LocalClusterError.self) { try LocalCluster(directory: directory).start() }
        #expect(error.message == "the cluster directory \(directory) is too long for a unix socket path "
            + "(at most 93 bytes): choose a shorter one")
    }
}

/// A thread-safe list for results gathered on several threads.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Result<String, any Error>] = []

    func append(_ item: Result<String, any Error>) {
        lock.withLock { items.append(item) }
    }

    var all: [Result<String, any Error>] { lock.withLock { items } }
}
