import MLSFeed

extension FixtureOptions {
    /// A mistake in `fixtures generate` arguments; `description` is the exact message shown to the user.
    package struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
        package var message: String

        package init(_ message: String) {
            self.message = message
        }

        package var description: String { message }
    }

    /// Parses CLI arguments: `--format triples|rets-compact|xml --shape header|per-record --listings N --seed S
    /// --output PATH [--delta-of PATH --changed 2% --new 0.5% --gone 0.5%] [--dirt none|default]`.
    ///
    /// Options take their value as the next argument or after `=` (`--seed=7`); `--jsonl` takes none. A delta
    /// takes format, shape, size, dirt and page layout from its base's truth, so `--listings`, `--format`,
    /// `--shape`, `--dirt`, `--page-size` and `--jsonl` are refused with it.
    package init(arguments: [String]) throws {
        var values: [String: String] = [:]
        var i = 0
        while i < arguments.count {
            let arg = arguments[i]
            guard arg.hasPrefix("--") else { throw UsageError("unexpected argument '\(arg)'") }
            var name = arg
            var value: String?
            if let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                value = String(arg[arg.index(after: eq)...])
            }
            guard FixtureOptions.optionNames.contains(name) else { throw UsageError("unknown option '\(name)'") }
            if FixtureOptions.flagNames.contains(name) {
                guard value == nil else { throw UsageError("option '\(name)' takes no value") }
                value = ""
            } else if value == nil {
                guard i + 1 < arguments.count else { throw UsageError("option '\(name)' needs a value") }
                i += 1
                value = arguments[i]
            }
            guard values[name] == nil else { throw UsageError("option '\(name)' given twice") }
            values[name] = value
            i += 1
        }
        guard let out = values["--output"], !out.isEmpty else {
            throw UsageError("missing required option '--output'")
        }
        self.init(listings: 0, output: out)
        if let deltaOf = values["--delta-of"] {
            for name in ["--listings", "--format", "--shape", "--dirt", "--page-size", "--jsonl"]
            where values[name] != nil {
                throw UsageError("option '\(name)' cannot be used with '--delta-of': the base's truth sets it")
            }
            self.deltaOf = deltaOf
            if let v = values["--changed"] { changed = try FixtureOptions.share("--changed", v) }
            if let v = values["--new"] { new = try FixtureOptions.share("--new", v) }
            if let v = values["--gone"] { gone = try FixtureOptions.share("--gone", v) }
            if changed + gone > 1 { throw UsageError("'--changed' and '--gone' together exceed 100%") }
        } else {
            for name in ["--changed", "--new", "--gone"] where values[name] != nil {
                throw UsageError("option '\(name)' needs '--delta-of'")
            }
            guard let n = values["--listings"] else { throw UsageError("missing required option '--listings'") }
            guard let count = Int(n), count > 0 else {
                throw UsageError("--listings: expected a positive integer, got \"\(n)\"")
            }
            listings = count
            if let f = values["--format"] {
                guard let parsed = Format(rawValue: f) else {
                    throw UsageError("--format: expected triples, rets-compact, xml, reso-json or syndication, "
                                     + "got \"\(f)\"")
                }
                format = parsed
            }
            try parseLayout(values)
            if let s = values["--shape"] {
                guard let parsed = Shape(rawValue: s) else {
                    throw UsageError("--shape: expected header or per-record, got \"\(s)\"")
                }
                shape = parsed
            }
            if let d = values["--dirt"] {
                switch d {
                case "none": dirt = .none
                case "default": dirt = .default
                default: throw UsageError("--dirt: expected none or default, got \"\(d)\"")
                }
            }
        }
        if let s = values["--seed"] {
            guard let parsed = UInt64(s) else {
                throw UsageError("--seed: expected an unsigned integer, got \"\(s)\"")
            }
            seed = parsed
        }
        if let s = values["--source"] {
            guard !s.isEmpty else { throw UsageError("--source: expected a feed id, got \"\"") }
            source = s
        }
    }

    package static let optionNames: Set<String> = [
        "--format", "--shape", "--listings", "--seed", "--output", "--dirt", "--delta-of", "--changed", "--new",
        "--gone", "--source", "--page-size", "--jsonl",
    ]

    /// Options that take no value.
    static let flagNames: Set<String> = ["--jsonl"]

    /// `--page-size N` or `--jsonl`: `reso-json` only, one or the other.
    private mutating func parseLayout(_ values: [String: String]) throws {
        for name in ["--page-size", "--jsonl"] where values[name] != nil && format != .resoJSON {
            throw UsageError("option '\(name)' needs '--format reso-json'")
        }
        if values["--page-size"] != nil && values["--jsonl"] != nil {
            throw UsageError("options '--page-size' and '--jsonl' cannot be used together")
        }
        if let n = values["--page-size"] {
            guard let size = Int(n), size > 0 else {
                throw UsageError("--page-size: expected a positive integer, got \"\(n)\"")
            }
            pageSize = size
        }
        jsonLines = values["--jsonl"] != nil
    }

    /// `2%` → 0.02, `0.02` → 0.02; between 0 and 100%.
    static func share(_ name: String, _ text: String) throws -> Double {
        let isPercent = text.hasSuffix("%")
        let number = isPercent ? String(text.dropLast()) : text
        guard let value = Double(number), value.isFinite, value >= 0 else {
            throw UsageError("\(name): expected a share like 2% or 0.02, got \"\(text)\"")
        }
        let share = isPercent ? value / 100 : value
        guard share <= 1 else { throw UsageError("\(name): expected at most 100%, got \"\(text)\"") }
        return share
    }
}
