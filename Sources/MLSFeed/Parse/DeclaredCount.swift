/// A document's own count of its records (RETS `<COUNT Records>`, OData `@odata.count`): it only feeds a warning
/// and the completeness check (`Completeness`), never the records read.
///
/// The count must be a whole number, 0 or more (surrounding whitespace allowed). Any other value (negative, a
/// fraction, words, too large) is a warning naming it and its position, and is ignored: a malformed count says
/// nothing about whether the dump is whole, and an advisory trailer is no reason to fail a run whose rows read
/// fine (a negative one would otherwise vouch for any dump: every part holds at least its own count).
enum DeclaredCount {
    /// The longest part of a malformed count shown in its warning.
    static let shownLimit = 40

    /// Reads `text` into `report`: its `declaredCount`, or a warning when it is not a count, naming it as
    /// `written` writes it (`COUNT Records="-4"`, `@odata.count -4`) from the text cut at `shownLimit` characters.
    static func read(_ text: String, written: (String) -> String, at position: SourcePosition,
                     into report: inout ParseReport) {
        if let count = Int(DelimitedText.trimmed(text)), count >= 0 {
            report.declaredCount = count
            return
        }
        let shown = text.count > shownLimit ? String(text.prefix(shownLimit)) + "…" : text
        report.warnings.append("\(written(shown)) at line \(position.line), column \(position.column) is not a "
                               + "number of records (a whole number, 0 or more); ignored")
    }
}
