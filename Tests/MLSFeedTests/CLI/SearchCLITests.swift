import Foundation
import MLSFeed
import Postgres
import PostgresTestSupport
import Testing

/// `mlsfeed search` through the built binary: usage errors, the three formats, a terminal, a read-only schema check.
@Suite(.ownThread) struct SearchCLITests {
    @Test(arguments: [
        (["search"], "error: expected one of mls, quick, detailed, near, agent"),
        (["search", "nearby"], "error: unknown search nearby; expected mls, quick, detailed, near or agent"),
        (["search", "mls"], "error: search mls needs an MLS number"),
        (["search", "near", "--lat", "32.7", "--lon", "-117.1", "--miles", "-2"],
         "error: --miles must be a number from 0 to 12500, got -2"),
        (["search", "near", "--lat", "95", "--lon", "-117.1", "--miles", "2"],
         "error: --lat must be a number from -90 to 90, got 95"),
        (["search", "near", "--lat", "32.7", "--miles", "2"], "error: search near needs --lon"),
        (["search", "detailed", "--min-price", "900000", "--max-price", "500000"],
         "error: --min-price 900000 is greater than --max-price 500000"),
        (["search", "detailed", "--sort", "cheapest"],
         "error: --sort must be price, -price, newest or beds, got cheapest"),
        (["search", "detailed", "--limit", "0"], "error: --limit must be a whole number from 1 to 1000, got 0"),
        (["search", "detailed", "--listed-since", "2026-02-30"],
         "error: --listed-since must be a date YYYY-MM-DD, got 2026-02-30"),
        (["search", "detailed", "--zip", "9210"], "error: --zip must be a 5-digit ZIP code, got 9210"),
        (["search", "detailed", "--beds", "-1"], "error: --beds must be a whole number of at least 0, got -1"),
        (["search", "detailed", "--baths", "two"], "error: --baths must be a number of at least 0, got two"),
        (["search", "detailed", "--ctiy", "X"], "error: unknown option --ctiy; did you mean --city?"),
        (["search", "detailed", "--format", "xml"], "error: --format must be table, json or csv, got xml"),
        (["search", "detailed", "--mortgage", "down=20%"],
         "error: --mortgage: rate is missing (expected down=PERCENT,rate=PERCENT,years=N)"),
        (["search", "quick", "--street-name", "Elm"], "error: search quick needs --street-number"),
        (["search", "agent"], "error: search agent needs --name, --office or both"),
        (["search", "agent", "--name", "an", "--after", "x"], "error: unknown option --after"),
    ])
    func usageMistakesExitTwoNamingTheFlag(arguments: [String], message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(message + "\n"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func jsonIsAnArrayOfTheSQLColumns() throws {
        let db = try SearchFixture.small.get()
        let result = try CLI.run(["search", "detailed", "--database", db, "--city", "San Diego", "--status", "Active",
                                  "--sort", "newest", "--limit", "5", "--format", "json",
                                  "--mortgage", "down=20%,rate=6.5,years=30"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let expected = try Connection(db).execute("""
            SELECT listing_id, search.monthly_payment(list_price, 0.2, 6.5, 30)::float8
            FROM search.detailed(city => 'San Diego', status => 'Active', sort => 'newest', lim => 5)
            """).rows
        #expect(rows.map { $0["listing_id"] as? String } == expected.map { $0[0] })
        #expect(rows.map { ($0["monthly_payment"] as? NSNumber)?.doubleValue }
                == expected.map { $0[1].flatMap(Double.init) })
        #expect(rows.allSatisfy { $0["city"] as? String == "San Diego" && $0["cursor"] is String })
        #expect(rows.allSatisfy { $0["list_price"] is NSNumber && $0["off_market_at"] is NSNull })
        #expect(rows.first?["distance_miles"] == nil)
    }

    @Test func csvHasAHeaderAndOneLinePerRow() throws {
        let db = try SearchFixture.small.get()
        let result = try CLI.run(["search", "near", "--database", db, "--lat", "32.7157", "--lon", "-117.1611",
                                  "--miles", "2", "--limit", "7", "--format", "csv"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.components(separatedBy: "\r\n").dropLast()
        #expect(lines.count == 8)
        #expect(lines.first?.hasPrefix("source,listing_id,standard_status,property_type,list_price,") == true)
        #expect(lines.first?.hasSuffix(",modification_timestamp,off_market_at,distance_miles,photo_url") == true)
    }

    @Test func aTableWithTheNextPage() throws {
        let db = try SearchFixture.small.get()
        let first = try CLI.run(["search", "detailed", "--database", db, "--zip", "92103", "--limit", "3"])
        #expect(first.status == 0, "\(first.stderr)")
        let lines = first.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines[1].allSatisfy { $0 == "-" || $0 == " " })
        // Cells are apart by two spaces at least and hold no two spaces in a row.
        func cells(_ line: String) -> [String] {
            line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        let column = try #require(cells(lines[0]).firstIndex(of: "MLS#"))
        let hint = try #require(first.stderr.split(separator: "\n").first { $0.hasPrefix("next page: --after ") })
        let cursor = String(hint.dropFirst("next page: --after ".count))
        let next = try CLI.run(["search", "detailed", "--database", db, "--zip", "92103", "--limit", "3",
                                "--after", cursor, "--format", "csv"])
        #expect(next.status == 0, "\(next.stderr)")
        let ids = try Connection(db).execute(
            "SELECT listing_id FROM search.detailed(postal_code => '92103', lim => 6)").rows.map { $0[0]! }
        let shown = lines.dropFirst(2).map { cells($0)[column] }
        let nextIDs = next.stdout.components(separatedBy: "\r\n").dropFirst().dropLast()
            .map { $0.split(separator: ",")[1] }.map(String.init)
        #expect(shown + nextIDs == ids)
    }

    @Test func aTableFitsTheTerminal() throws {
        let db = try SearchFixture.small.get()
        let result = try Self.onTerminal(columns: 100, ["search", "detailed", "--database", db, "--status", "Active",
                                                        "--city", "La Jolla", "--limit", "4"])
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n").filter { !$0.hasPrefix("next page") }
        #expect(lines.count == 6, "\(result.output)")
        #expect(lines[0].hasPrefix("MLS#"))
        #expect(lines.allSatisfy { $0.count <= 100 }, "\(result.output)")
        #expect(lines.dropFirst(2).allSatisfy { $0.contains(" La Jolla ") || $0.contains("…") })
        let agents = try Self.onTerminal(columns: 60, ["search", "agent", "--database", db, "--name", "smi"])
        #expect(agents.status == 0, "\(agents.output)")
        #expect(agents.output.split(separator: "\n").allSatisfy { $0.count <= 60 }, "\(agents.output)")
    }

    @Test func searchNeverMigrates() throws {
        let db = try TestDatabase.fresh()
        let result = try CLI.run(["search", "mls", "00000001", "--database", db])
        #expect(result.status == 1)
        #expect(result.stderr == "error: the database schema is at version 0, this mlsfeed needs "
            + "\(Migrations.latestVersion); run `mlsfeed db migrate`\n")
        #expect(try Connection(db).execute("SELECT to_regclass('schema_migrations') IS NULL").rows == [["t"]])
    }

    @Test func nothingFoundIsNotAnError() throws {
        let db = try SearchFixture.small.get()
        let table = try CLI.run(["search", "mls", "no-such", "--database", db])
        #expect(table.status == 0 && table.stdout.isEmpty && table.stderr == "no listings found\n")
        let json = try CLI.run(["search", "agent", "--name", "zz", "--database", db, "--format", "json"])
        #expect(json.status == 0 && json.stdout == "[]\n")
    }

    /// Runs mlsfeed with a pseudo-terminal `columns` wide as standard output and error (python3's `pty`).
    static func onTerminal(columns: Int, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let script = """
            import fcntl, os, pty, struct, sys, termios
            pid, fd = pty.fork()
            if pid == 0:
                fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", 40, int(sys.argv[1]), 0, 0))
                os.execv(sys.argv[2], sys.argv[2:])
            out = b""
            while True:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    break
                if not data:
                    break
                out += data
            _, status = os.waitpid(pid, 0)
            sys.stdout.buffer.write(out)
            sys.exit(os.waitstatus_to_exitcode(status))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, String(columns), CLI.binary.path] + arguments
        process.currentDirectoryURL = CLI.packageRoot
        var environment = ProcessInfo.processInfo.environment
        for key in ["MLSFEED_DATABASE_URL", "PGHOST", "PGDATABASE", "MLSFEED_CONFIG", "COLUMNS"] {
            environment[key] = nil
        }
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r", with: "")
        return (process.terminationStatus, output)
    }
}
