import Foundation
import MLSFeed
import Postgres

/// `mlsfeed search mls|quick|detailed|near|agent`: the SQL search API from the command line. Read-only: it checks
/// the schema (`Migrations.requireCurrent`) and never migrates.
enum SearchCommand {
    static let kinds = CommandHelp.search.variants

    static func main(_ args: [String]) throws -> Int32 {
        guard let kind = args.first else {
            throw UsageError(message: "expected one of mls, quick, detailed, near, agent")
        }
        guard kinds.contains(kind) else {
            let hint = kinds.first { $0.hasPrefix(kind) }.map { "; did you mean \($0)?" } ?? ""
            throw UsageError(message: "unknown search \(kind)\(hint); expected mls, quick, detailed, near or agent")
        }
        let parsed = try Arguments(Array(args.dropFirst()), command: CommandHelp.search, variant: kind)
        let format = try parsed["format"].map { text -> SearchOutput.Format in
            guard let format = SearchOutput.Format(rawValue: text) else {
                throw UsageError(message: "--format must be table, json or csv, got \(text)")
            }
            return format
        } ?? .table
        let mortgage = try parsed["mortgage"].map { spec -> Mortgage in
            do {
                return try Mortgage(spec: spec)
            } catch let error as Mortgage.SpecError {
                throw UsageError(message: "--mortgage: \(error.message)")
            }
        }
        let search = try Search(kind: kind, parsed)

        let context = try Context(configFlag: parsed["config"])
        let connection = try Connection(try context.conninfo(flag: parsed["database"]))
        try Migrations.requireCurrent(connection)
        let queries = SearchQueries(connection: connection)
        let width = terminalWidth()
        switch search {
        case .agents(let agents):
            let rows = try queries.agents(agents)
            if rows.isEmpty && format == .table {
                printError("no agents found")
                return 0
            }
            print(SearchOutput.agents(rows, format, width: width), terminator: "")
        case .listings(let run, let extras, let limit):
            let rows = try run(queries, mortgage)
            if rows.isEmpty && format == .table {
                printError("no listings found")
                return 0
            }
            var shown = extras
            shown.payment = mortgage != nil
            print(SearchOutput.listings(rows, format, extras: shown, width: width), terminator: "")
            if format == .table, extras.cursor, rows.count == limit, let cursor = rows.last?.cursor {
                printError("next page: --after \(cursor)")
            }
        }
        return 0
    }

    /// A search read from the command line, before it touches the database.
    private enum Search {
        case listings((SearchQueries, Mortgage?) throws -> [SearchListing], SearchOutput.Extras, limit: Int)
        case agents(AgentSearch)

        init(kind: String, _ parsed: Arguments) throws {
            switch kind {
            case "mls":
                guard parsed.positionals.count == 1 else {
                    throw UsageError(message: parsed.positionals.isEmpty ? "search mls needs an MLS number"
                                                                         : "search mls takes one MLS number")
                }
                let id = parsed.positionals[0], source = parsed["source"]
                let withdrawn = parsed.has("include-withdrawn")
                self = .listings({ queries, mortgage in
                    try queries.listing(source: source, listingID: id, includeWithdrawn: withdrawn, mortgage: mortgage)
                }, SearchOutput.Extras(detail: true), limit: 0)
            case "quick":
                try SearchCommand.noPositionals(parsed, kind)
                var quick = QuickSearch(streetNumber: try SearchCommand.required(parsed, "street-number", kind),
                                        streetName: try SearchCommand.required(parsed, "street-name", kind))
                quick.area = parsed["area"]
                quick.status = parsed["status"]
                quick.limit = try SearchCommand.limit(parsed)
                quick.includeWithdrawn = parsed.has("include-withdrawn")
                let search = quick
                self = .listings({ try $0.quick(search, mortgage: $1) }, SearchOutput.Extras(), limit: quick.limit)
            case "detailed":
                try SearchCommand.noPositionals(parsed, kind)
                var detailed = DetailedSearch()
                detailed.filters = try SearchCommand.filters(parsed)
                detailed.city = parsed["city"]
                if let zip = parsed["zip"] {
                    guard zip.count == 5, zip.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                        throw UsageError(message: "--zip must be a 5-digit ZIP code, got \(zip)")
                    }
                    detailed.postalCode = zip
                }
                if let sort = parsed["sort"] {
                    guard let value = SearchSort(rawValue: sort) else {
                        throw UsageError(message: "--sort must be price, -price, newest or beds, got \(sort)")
                    }
                    detailed.sort = value
                }
                detailed.after = parsed["after"]
                detailed.limit = try SearchCommand.limit(parsed)
                let search = detailed
                self = .listings({ try $0.detailed(search, mortgage: $1) }, SearchOutput.Extras(cursor: true),
                                 limit: detailed.limit)
            case "near":
                try SearchCommand.noPositionals(parsed, kind)
                var near = NearSearch(
                    latitude: try SearchCommand.number(parsed, "lat", kind, in: -90...90),
                    longitude: try SearchCommand.number(parsed, "lon", kind, in: -180...180),
                    miles: try SearchCommand.number(parsed, "miles", kind, in: 0...12_500))
                near.filters = try SearchCommand.filters(parsed)
                near.limit = try SearchCommand.limit(parsed)
                let search = near
                self = .listings({ try $0.near(search, mortgage: $1) }, SearchOutput.Extras(distance: true),
                                 limit: near.limit)
            default:
                try SearchCommand.noPositionals(parsed, kind)
                var agents = AgentSearch(namePrefix: parsed["name"], officeID: parsed["office"])
                guard agents.namePrefix != nil || agents.officeID != nil else {
                    throw UsageError(message: "search agent needs --name, --office or both")
                }
                if agents.namePrefix?.trimmingCharacters(in: .whitespaces).isEmpty == true {
                    throw UsageError(message: "--name must not be empty")
                }
                agents.limit = try SearchCommand.limit(parsed)
                self = .agents(agents)
            }
        }
    }

    /// The criteria detailed and near searches share, checked.
    private static func filters(_ parsed: Arguments) throws -> ListingFilters {
        var filters = ListingFilters()
        filters.propertyType = parsed["type"]
        filters.status = parsed["status"]
        filters.minPrice = try decimal(parsed, "min-price")
        filters.maxPrice = try decimal(parsed, "max-price")
        if let low = filters.minPrice, let high = filters.maxPrice, low > high {
            throw UsageError(message: "--min-price \(low) is greater than --max-price \(high)")
        }
        if let beds = parsed["beds"] {
            guard let n = Int(beds), n >= 0 else {
                throw UsageError(message: "--beds must be a whole number of at least 0, got \(beds)")
            }
            filters.minBeds = n
        }
        filters.minBaths = try decimal(parsed, "baths")
        filters.minSqft = try decimal(parsed, "min-sqft")
        if let since = parsed["listed-since"] {
            guard let date = SearchDate(since) else {
                throw UsageError(message: "--listed-since must be a date YYYY-MM-DD, got \(since)")
            }
            filters.listedSince = date
        }
        filters.includeWithdrawn = parsed.has("include-withdrawn")
        return filters
    }

    /// A non-negative plain decimal (`500000`, `2.5`), or nil when the option is absent.
    private static func decimal(_ parsed: Arguments, _ name: String) throws -> Decimal? {
        guard let text = parsed[name] else { return nil }
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              text.filter({ $0 == "." }).count <= 1, text != ".",
              let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            throw UsageError(message: "--\(name) must be a number of at least 0, got \(text)")
        }
        return value
    }

    /// A required number within `range`.
    private static func number(_ parsed: Arguments, _ name: String, _ kind: String,
                               in range: ClosedRange<Double>) throws -> Double {
        let text = try required(parsed, name, kind)
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError(message: "--\(name) must be a number from \(plain(range.lowerBound)) to "
                                      + "\(plain(range.upperBound)), got \(text)")
        }
        return value
    }

    private static func plain(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    private static func required(_ parsed: Arguments, _ name: String, _ kind: String) throws -> String {
        guard let value = parsed[name] else { throw UsageError(message: "search \(kind) needs --\(name)") }
        return value
    }

    /// `--limit`, 1-1000 (default 20).
    private static func limit(_ parsed: Arguments) throws -> Int {
        guard let text = parsed["limit"] else { return 20 }
        guard let n = Int(text), (1...1000).contains(n) else {
            throw UsageError(message: "--limit must be a whole number from 1 to 1000, got \(text)")
        }
        return n
    }

    private static func noPositionals(_ parsed: Arguments, _ kind: String) throws {
        if let extra = parsed.positionals.first {
            throw UsageError(message: "search \(kind) takes no argument \(extra) (criteria are options)")
        }
    }

    /// The terminal's width when standard output is one, else nil (tables are then never cut).
    private static func terminalWidth() -> Int? {
        guard isatty(1) == 1 else { return nil }
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return ProcessInfo.processInfo.environment["COLUMNS"].flatMap { Int($0) } ?? 80
    }
}
