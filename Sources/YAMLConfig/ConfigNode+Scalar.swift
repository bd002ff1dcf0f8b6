extension ConfigNode {
    /// The text of any scalar; `expected a scalar` for a list or a mapping.
    public func string() throws -> String {
        guard case .scalar(let text) = node.kind else {
            throw error("expected a scalar")
        }
        return text
    }

    /// A decimal integer such as `42`, `-7` or `+3`; `expected an integer, got "lots"` otherwise.
    public func int() throws -> Int {
        guard case .scalar(let text) = node.kind, let value = Int(text) else {
            throw error("expected an integer, got \(shownValue)")
        }
        return value
    }

    /// A decimal number (`1.5`, `-2e3`, `7`) or `.inf`, `-.inf`, `.nan`; `expected a number, got ...` otherwise.
    public func double() throws -> Double {
        guard case .scalar(let text) = node.kind, let value = Self.number(text) else {
            throw error("expected a number, got \(shownValue)")
        }
        return value
    }

    /// An integer within `range`; `expected an integer from 1 to 100000, got 2147483648` otherwise.
    public func int(in range: ClosedRange<Int>) throws -> Int {
        let value = try int()
        guard range.contains(value) else {
            throw error("expected an integer from \(range.lowerBound) to \(range.upperBound), got \(value)")
        }
        return value
    }

    /// A finite number within `range`; `expected a number from 0 to 3600, got -3` otherwise.
    public func double(in range: ClosedRange<Double>) throws -> Double {
        let value = try double()
        guard value.isFinite, range.contains(value) else {
            throw error("expected a number from \(Self.shown(range.lowerBound)) to \(Self.shown(range.upperBound)), "
                        + "got \(Self.shown(value))")
        }
        return value
    }

    /// A share between 0 and 1 (`0.05`); `expected a share between 0 and 1, got 5` otherwise.
    public func share() throws -> Double {
        let value = try double()
        guard value.isFinite, (0...1).contains(value) else {
            throw error("expected a share between 0 and 1, got \(Self.shown(value))")
        }
        return value
    }

    /// Seconds within `range`; `expected seconds from 1 to 3600, got 0` otherwise.
    public func seconds(in range: ClosedRange<Double>) throws -> Double {
        let value = try double()
        guard value.isFinite, range.contains(value) else {
            throw error("expected seconds from \(Self.shown(range.lowerBound)) to \(Self.shown(range.upperBound)), "
                        + "got \(Self.shown(value))")
        }
        return value
    }

    /// A scalar with something besides whitespace in it (an empty `${VAR}` is caught here);
    /// `expected a non-empty value` otherwise.
    public func nonBlankString() throws -> String {
        let text = try string()
        guard text.contains(where: { !$0.isWhitespace }) else { throw error("expected a non-empty value") }
        return text
    }

    /// `true`/`false`/`yes`/`no`/`on`/`off` in any case; `expected true or false, got ...` otherwise.
    public func bool() throws -> Bool {
        if case .scalar(let text) = node.kind {
            switch text.lowercased() {
            case "true", "yes", "on": return true
            case "false", "no", "off": return false
            default: break
            }
        }
        throw error("expected true or false, got \(shownValue)")
    }

    /// The value paired with this scalar's exact text; `expected one of: a, b, got "x"` otherwise.
    public func oneOf<T>(_ table: [(String, T)]) throws -> T {
        if case .scalar(let text) = node.kind, let match = table.first(where: { $0.0 == text }) {
            return match.1
        }
        let names = table.map(\.0).joined(separator: ", ")
        throw error("expected one of: \(names), got \(shownValue)")
    }

    /// `5`, `0.05`, `1e+06`: integers without a fraction.
    private static func shown(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    private static func number(_ text: String) -> Double? {
        switch text {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .infinity
        case "-.inf", "-.Inf", "-.INF": return -.infinity
        case ".nan", ".NaN", ".NAN": return .nan
        default: break
        }
        let allowed = Set("0123456789+-.eE")
        guard text.contains(where: \.isNumber), text.allSatisfy({ allowed.contains($0) }) else { return nil }
        return Double(text)
    }
}
