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
