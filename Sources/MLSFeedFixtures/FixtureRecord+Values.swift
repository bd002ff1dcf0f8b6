import MLSFeed

extension FixtureRecord {
    /// Whether the field has a (non-empty) value.
    func has(_ field: FixtureField) -> Bool {
        !spans[field.rawValue].isEmpty
    }

    /// The field's value as an integer, read the way a loader would: spaces and thousands separators ignored
    /// (` 3 ` → 3, `1,850` → 1850); nil when empty or not a whole number.
    func integer(_ field: FixtureField) -> Int? {
        var value = 0, digits = 0, negative = false
        for byte in bytes[spans[field.rawValue]] {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            case UInt8(ascii: " "), UInt8(ascii: ","): continue
            case UInt8(ascii: "-") where digits == 0: negative = true
            default: return nil
            }
        }
        return digits > 0 ? (negative ? -value : value) : nil
    }

    /// The field's yes/no value (`Yes`, `Y`, `No`, `N`, `None`); nil for anything else.
    func flag(_ field: FixtureField) -> Bool? {
        switch text(field) {
        case "Yes", "Y", "True": return true
        case "No", "N", "None", "False": return false
        default: return nil
        }
    }

    /// The ranges of the comma-separated items of the field's value, spaces around them trimmed.
    func items(_ field: FixtureField) -> [Range<Int>] {
        let span = spans[field.rawValue]
        var result: [Range<Int>] = []
        var start = span.lowerBound
        for i in span.lowerBound...span.upperBound where i == span.upperBound || bytes[i] == UInt8(ascii: ",") {
            var lo = start, hi = i
            while lo < hi && bytes[lo] == UInt8(ascii: " ") { lo += 1 }
            while hi > lo && bytes[hi - 1] == UInt8(ascii: " ") { hi -= 1 }
            if lo < hi { result.append(lo..<hi) }
            start = i + 1
        }
        return result
    }
}
