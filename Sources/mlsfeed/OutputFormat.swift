/// `--format`: how a command prints what it found.
enum OutputFormat: String {
    case table, json, jsonl

    /// The `--format` value (the first allowed one when absent); a usage error names the allowed ones.
    init(_ text: String?, allowed: [OutputFormat]) throws {
        guard let text else {
            self = allowed[0]
            return
        }
        guard let format = OutputFormat(rawValue: text), allowed.contains(format) else {
            let names = allowed.map(\.rawValue).joined(separator: " or ")
            throw UsageError(message: "--format must be \(names), got \(text)")
        }
        self = format
    }
}
