extension Int64 {
    /// A decimal integer from ASCII digits with an optional sign; nil for anything else.
    init?<C: Collection>(ascii digits: C) where C.Element == UInt8 {
        var value: Int64 = 0
        var negative = false
        var any = false
        for (i, byte) in digits.enumerated() {
            if i == 0 && byte == UInt8(ascii: "-") { negative = true; continue }
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = negative ? times.subtractingReportingOverflow(Int64(byte - 0x30))
                : times.addingReportingOverflow(Int64(byte - 0x30))
            guard !o1 && !o2 else { return nil }
            value = sum
            any = true
        }
        guard any else { return nil }
        self = value
    }
}
