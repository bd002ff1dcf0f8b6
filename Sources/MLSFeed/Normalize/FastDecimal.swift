/// Exact decimal parsing and formatting on UTF-8 bytes, in hundredths (two decimals, the precision of
/// `numeric(14,2)`): the hot path of money, decimal and integer coercion, without Foundation's `Decimal`.
enum FastDecimal {
    /// Parses `[-]digits[.digits]` (nothing else) times `multiplier` (a power of ten) into hundredths, rounding
    /// half away from zero past two decimals. Nil when the text is not a plain number or overflows.
    static func hundredths(_ bytes: UnsafeBufferPointer<UInt8>, multiplierExponent: Int = 0) -> Int64? {
        var i = 0
        var negative = false
        if i < bytes.count && bytes[i] == 0x2D {
            negative = true
            i += 1
        }
        var mantissa: Int64 = 0
        var digits = 0
        var fraction = 0
        var seenDot = false
        var roundUp = false
        var truncated = false
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            if b == 0x2E {
                if seenDot { return nil }
                seenDot = true
                continue
            }
            guard b >= 0x30 && b <= 0x39 else { return nil }
            digits += 1
            // Digits past what hundredths can hold only decide rounding.
            if seenDot && fraction >= 2 + multiplierExponent {
                if !truncated { roundUp = b >= 0x35 }
                truncated = true
                continue
            }
            let (m1, o1) = mantissa.multipliedReportingOverflow(by: 10)
            let (m2, o2) = m1.addingReportingOverflow(Int64(b - 0x30))
            if o1 || o2 { return nil }
            mantissa = m2
            if seenDot { fraction += 1 }
        }
        guard digits > 0 else { return nil }
        var shift = 2 + multiplierExponent - fraction
        while shift > 0 {
            let (m, o) = mantissa.multipliedReportingOverflow(by: 10)
            if o { return nil }
            mantissa = m
            shift -= 1
        }
        if roundUp {
            let (m, o) = mantissa.addingReportingOverflow(1)
            if o { return nil }
            mantissa = m
        }
        return negative ? -mantissa : mantissa
    }

    /// Canonical text of a hundredths value: `549000`, `12.5`, `1999.99`, `-3`.
    static func format(_ hundredths: Int64) -> String {
        let negative = hundredths < 0
        let magnitude = hundredths.magnitude
        var text = negative ? "-" : ""
        text += String(magnitude / 100)
        let cents = magnitude % 100
        if cents != 0 {
            text += cents % 10 == 0 ? ".\(cents / 10)" : (cents < 10 ? ".0\(cents)" : ".\(cents)")
        }
        return text
    }
}
