/// Runs over the raw bytes ahead of yajl: strict UTF-8 and surrogate pairing inside strings, unescaped control
/// characters, and line counting. A pure state machine over chunks: any chunk split gives the same result.
///
/// yajl's own check lets through overlong forms (`C0 80`), encoded surrogates (`ED A0 80`), code points above
/// U+10FFFF, and decodes an unpaired `\uDC00` to invalid UTF-8 and an unpaired `\uD800` to `?`: this refuses them.
/// Only strings are examined; everything else outside strings is left to yajl, which refuses any byte that
/// cannot start a token, so the first problem of the text is always reported, whoever finds it.
struct JSONInputScanner {
    /// The first problem found, at an absolute byte offset.
    struct Issue: Equatable {
        var offset: Int
        var message: String
    }

    /// Absolute offset of the next byte to scan (= bytes scanned so far).
    private(set) var offset = 0
    /// 1-based line of the next byte.
    private(set) var line = 1
    /// Absolute offset of the first byte of the current line.
    private(set) var lineStart = 0

    /// Absolute offset of the opening quote of the last string (the one still open, when `isInString`).
    private(set) var stringStart = 0

    private var mode = Mode.outside
    /// Inside a UTF-8 sequence: continuation bytes still expected, and the allowed range of the next one.
    private var need = 0
    private var low: UInt8 = 0x80
    private var high: UInt8 = 0xBF
    private var lead: UInt8 = 0
    /// Where the current UTF-8 sequence / escape / high surrogate escape started.
    private var sequenceStart = 0
    private var escapeStart = 0
    private var highStart = 0
    /// Inside `\uXXXX`: hex digits still expected and the value so far; the pending high surrogate (0: none).
    private var hexLeft = 0
    private var code: UInt32 = 0
    private var pendingHigh: UInt32 = 0

    private enum Mode {
        case outside, string, escape, hex, highBackslash, highU, utf8
    }

    /// Bytes that stop the fast loops: bit 1 outside a string (`"` and line feed), bit 2 inside one (`"`, `\`,
    /// control characters and every non-ASCII byte).
    private static let classes: [UInt8] = (0...255).map { byte -> UInt8 in
        var bits: UInt8 = 0
        if byte == 0x22 || byte == 0x0A { bits |= 1 }
        if byte == 0x22 || byte == 0x5C || byte < 0x20 || byte >= 0x80 { bits |= 2 }
        return bits
    }

    /// Passes over `count` bytes that are not part of the JSON text (a byte order mark at the start).
    mutating func skip(_ count: Int) {
        offset += count
    }

    /// Whether the text ends inside a string.
    var isInString: Bool { mode != .outside }

    /// Scans the next chunk; returns the first problem (the scanner must not be used after one).
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Issue? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        let issue = Self.classes.withUnsafeBufferPointer { classes -> Issue? in
            var i = 0
            while i < count {
                switch mode {
                case .outside, .string:
                    // The common path, without going through the switch for every token: text outside strings,
                    // strings, simple escapes and whole UTF-8 sequences. The rest goes on in its own mode.
                    var inString = mode == .string
                    var next: Mode?
                    text: while i < count {
                        if !inString {
                            i = Self.skipWords(base, from: i, count: count, inString: false)
                            while i < count && classes[Int(base[i])] & 1 == 0 { i += 1 }
                            guard i < count else { break text }
                            if base[i] == 0x22 {
                                inString = true
                                stringStart = offset + i
                            } else {
                                line += 1
                                lineStart = offset + i + 1
                            }
                            i += 1
                            continue
                        }
                        i = Self.skipWords(base, from: i, count: count, inString: true)
                        while i < count && classes[Int(base[i])] & 2 == 0 { i += 1 }
                        guard i < count else { break text }
                        let byte = base[i]
                        if byte == 0x22 {
                            inString = false
                            i += 1
                        } else if byte == 0x5C {
                            // yajl checks the escaped character itself; only `\u` needs following here.
                            if i + 1 < count && base[i + 1] != UInt8(ascii: "u") && base[i + 1] < 0x80 {
                                i += 2
                                continue
                            }
                            escapeStart = offset + i
                            i += 1
                            next = .escape
                            break text
                        } else if byte < 0x20 {
                            return Issue(offset: offset + i, message: "unescaped control character "
                                         + Self.hex(byte) + " in a string")
                        } else {
                            let (more, first) = Self.sequence(byte)
                            guard more > 0 else {
                                return Issue(offset: offset + i,
                                             message: "invalid UTF-8 in a string (byte \(Self.hex(byte)))")
                            }
                            guard i + more < count else {
                                startSequence(byte, at: offset + i)
                                i += 1
                                next = .utf8
                                break text
                            }
                            var valid = first.contains(base[i + 1])
                            for k in 2...max(more, 2) where k <= more { valid = valid && base[i + k] & 0xC0 == 0x80 }
                            guard valid else {
                                return Issue(offset: offset + i,
                                             message: "invalid UTF-8 in a string (byte \(Self.hex(byte)))")
                            }
                            i += more + 1
                        }
                    }
                    mode = next ?? (inString ? .string : .outside)
                case .escape:
                    // yajl checks the escaped character itself; only `\u` needs following here.
                    if base[i] == UInt8(ascii: "u") {
                        mode = .hex
                        hexLeft = 4
                        code = 0
                        i += 1
                    } else if base[i] < 0x80 {
                        mode = .string
                        i += 1
                    } else {
                        mode = .string
                    }
                case .hex:
                    guard let digit = Self.hexValue(base[i]) else {
                        mode = .string  // not an escape yajl accepts: it reports it
                        continue
                    }
                    code = code << 4 | digit
                    hexLeft -= 1
                    i += 1
                    if hexLeft == 0, let issue = endEscape() { return issue }
                case .highBackslash, .highU:
                    let expected = mode == .highBackslash ? UInt8(ascii: "\\") : UInt8(ascii: "u")
                    guard base[i] == expected else { return unpaired(pendingHigh, at: highStart) }
                    if mode == .highBackslash {
                        mode = .highU
                        escapeStart = offset + i
                    } else {
                        mode = .hex
                        hexLeft = 4
                        code = 0
                    }
                    i += 1
                case .utf8:
                    let byte = base[i]
                    guard byte >= low && byte <= high else {
                        return Issue(offset: sequenceStart,
                                     message: "invalid UTF-8 in a string (byte \(Self.hex(lead)))")
                    }
                    low = 0x80
                    high = 0xBF
                    need -= 1
                    if need == 0 { mode = .string }
                    i += 1
                }
            }
            return nil
        }
        offset += count
        return issue
    }

    /// Skips 8 bytes at a time while none of them stops the loop of the mode (SWAR: a byte of a word is zero
    /// iff `(w - 0x01…) & ~w & 0x80…` has its high bit; the test is exact for "any byte"). Returns the first
    /// byte that stops the loop, or where the last whole word ends.
    @inline(__always)
    private static func skipWords(_ base: UnsafePointer<UInt8>, from start: Int, count: Int, inString: Bool) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var i = start
        while i + 8 <= count {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            let quote = word ^ (ones &* 0x22)
            var found = (quote &- ones) & ~quote
            if inString {
                let backslash = word ^ (ones &* 0x5C)
                found |= ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word) | word
            } else {
                let newline = word ^ (ones &* 0x0A)
                found |= (newline &- ones) & ~newline
            }
            let flagged = found & highs
            // Borrows only flag bytes above a real match, so the lowest flag is the first byte to stop at.
            if flagged != 0 { return i + flagged.trailingZeroBitCount >> 3 }
            i += 8
        }
        return i
    }

    /// How many continuation bytes follow a lead byte (0: it cannot lead a sequence) and the range of the first.
    @inline(__always)
    private static func sequence(_ byte: UInt8) -> (more: Int, first: ClosedRange<UInt8>) {
        switch byte {
        case 0xC2...0xDF: return (1, 0x80...0xBF)
        case 0xE0: return (2, 0xA0...0xBF)
        case 0xED: return (2, 0x80...0x9F)
        case 0xE1...0xEF: return (2, 0x80...0xBF)
        case 0xF0: return (3, 0x90...0xBF)
        case 0xF1...0xF3: return (3, 0x80...0xBF)
        case 0xF4: return (3, 0x80...0x8F)
        default: return (0, 0x80...0xBF)
        }
    }

    /// Starts a multi-byte sequence that goes on in the next chunk (the lead byte is valid).
    private mutating func startSequence(_ byte: UInt8, at position: Int) {
        let (more, first) = Self.sequence(byte)
        (need, low, high) = (more, first.lowerBound, first.upperBound)
        mode = .utf8
        lead = byte
        sequenceStart = position
    }

    /// The four hex digits of `\uXXXX` are read: surrogates must come as a high-low pair.
    private mutating func endEscape() -> Issue? {
        if pendingHigh != 0 {
            guard (0xDC00...0xDFFF).contains(code) else { return unpaired(pendingHigh, at: highStart) }
            pendingHigh = 0
            mode = .string
        } else if (0xD800...0xDBFF).contains(code) {
            pendingHigh = code
            highStart = escapeStart
            mode = .highBackslash
        } else if (0xDC00...0xDFFF).contains(code) {
            return unpaired(code, at: escapeStart)
        } else {
            mode = .string
        }
        return nil
    }

    private func unpaired(_ surrogate: UInt32, at position: Int) -> Issue {
        let digits = String(surrogate, radix: 16, uppercase: true)
        return Issue(offset: position, message: "unpaired surrogate \\u\(digits) in a string")
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        "0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }
}
