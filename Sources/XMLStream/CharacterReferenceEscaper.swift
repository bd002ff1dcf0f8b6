/// Rewrites each non-ASCII character of an XML document's character data as a character reference (`é` becomes
/// `&#xE9;`), chunk by chunk, so that libxml2 keeps to its fast path; the parser reports the same text.
///
/// libxml2 2.9 (Debian 12 ships 2.9.14) reads character data in runs only while the bytes are ASCII: from the first
/// non-ASCII byte of a text to its next `<` or `&` it decodes, checks and copies one character at a time. One `é`
/// early in a RETS COMPACT row sends the rest of the row down that path. A reference sends libxml2 out of it for
/// one character and back into the fast path after it.
///
/// Only character data is rewritten: names, attribute values, comments, CDATA sections, processing instructions
/// and the document's first markup pass through as they are. A document type declaration, a declared encoding other
/// than UTF-8 or a document that does not start like ASCII-compatible text switches the rewriting off for the rest
/// of the document. An invalid UTF-8 sequence (or U+FFFE, U+FFFF) passes through for libxml2 to report.
///
/// Each reference is longer than the character it stands for, so libxml2's column runs ahead on the rest of its
/// line; `references` lists where each one ends in the rewritten stream and by how much it runs ahead, for the
/// parser to take back.
package struct CharacterReferenceEscaper {
    /// Where the bytes read so far leave the document.
    package enum State: Equatable, Sendable {
        /// The document's first bytes, held until they tell the encoding.
        case head
        /// Character data (and the white space between markup).
        case text
        /// Just after `<`.
        case open
        /// Just after `<!`.
        case bang
        /// Inside a comment, CDATA section or processing instruction, which ends at its `closer`s and `>` (`-->`,
        /// `]]>`, `?>`; how many: `closers(before:)`): `run` counts the `closer`s that came last.
        case section(closer: UInt8, run: Int)
        /// Inside a start or end tag, in an attribute value quoted by `quote` or (0) outside any.
        case tag(quote: UInt8)
        /// Rewriting is off for the rest of the document.
        case off
    }

    /// A reference written into the stream: the offset just past its `;` and how many columns it adds.
    package struct Reference: Equatable, Sendable {
        package var end: Int
        package var extra: Int
    }

    package private(set) var state: State
    /// The references not yet taken with `takeReference(endingBy:)`, oldest first (from `referenceHead` on).
    private var references: [Reference] = []
    private var referenceHead = 0
    /// Bytes of the rewritten stream handed out so far.
    package private(set) var written = 0
    /// Characters rewritten as references so far.
    package private(set) var rewritten = 0
    /// Bytes held back: the document's head (state `head`) or an incomplete UTF-8 sequence at a chunk's end.
    private var held: [UInt8] = []
    /// Bytes the next scan passes over first: the byte-order mark of a document just decided on.
    private var skip = 0
    /// Whether the bytes before the next chunk end in `&` and name characters (see `continuesReference`).
    private var referenceOpen = false

    /// The longest document head read before deciding: an XML declaration is far shorter.
    private static let headLimit = 512
    /// The most references written into one text: past them, the rest of a text dense with non-ASCII characters
    /// (where a reference each would cost more than libxml2's slow path) passes as it is.
    package static let referencesPerText = 32
    /// References written into the current text.
    private var textReferences = 0

    /// A rewriter for a document in UTF-8 (or declaring its encoding), or one that is off from the start.
    package init(enabled: Bool = true) {
        state = enabled ? .head : .off
    }

    /// Whether any reference written is still to be taken.
    package var hasReferences: Bool { referenceHead < references.count }

    /// The oldest reference not yet taken.
    package var nextReference: Reference? { hasReferences ? references[referenceHead] : nil }

    /// Drops the oldest reference (the parser took it, or went past it).
    package mutating func dropReference() {
        referenceHead += 1
        if referenceHead == references.count {
            references.removeAll(keepingCapacity: true)
            referenceHead = 0
        }
    }

    /// Rewrites `bytes`, the document's next chunk: true when the bytes to parse are in `output` (emptied first),
    /// false when they are `bytes` unchanged (nothing to rewrite and nothing held: no copy).
    package mutating func rewrite(_ bytes: ArraySlice<UInt8>, into output: inout [UInt8]) -> Bool {
        if state == .off && held.isEmpty {
            written += bytes.count
            return false
        }
        output.removeAll(keepingCapacity: true)
        if held.isEmpty {
            let changed = bytes.withUnsafeBufferPointer { scan($0, into: &output) }
            if !changed { written += bytes.count }
            return changed
        }
        var joined = held
        held.removeAll()
        joined.append(contentsOf: bytes)
        if state == .head {
            guard decide(joined) else {
                held = joined
                return true  // `output` is empty: nothing to parse yet
            }
        }
        if !joined.withUnsafeBufferPointer({ scan($0, into: &output) }) {
            output.append(contentsOf: joined)
            written += joined.count
        }
        return true
    }

    /// The bytes still held at the document's end (an incomplete sequence, or a head too short to decide on),
    /// to parse as they are.
    package mutating func finish(into output: inout [UInt8]) {
        output.removeAll(keepingCapacity: true)
        output.append(contentsOf: held)
        written += held.count
        held.removeAll()
        if state == .head { state = .off }
    }

    // MARK: - The document's head

    /// Decides from the document's first bytes whether to rewrite (state `text`) or not (`off`); false when `head`
    /// is too short to tell yet. It waits only while the bytes could still be a byte-order mark or the start of an
    /// XML declaration, or are a declaration without its `?>` (so libxml2 gets anything else, and its errors about
    /// it, at once).
    private mutating func decide(_ head: [UInt8]) -> Bool {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let declaration = Array("<?xml".utf8)
        if head.count < mark.count && mark.starts(with: head) && !head.isEmpty { return false }
        let start = head.starts(with: mark) ? mark.count : 0
        let rest = head[start...]
        // UTF-16 or UTF-32 (a byte-order mark or NUL bytes), or anything else that is not ASCII at first.
        if let first = rest.first, first >= 0x80 || first == 0 { state = .off; return true }
        if rest.dropFirst().first == 0 { state = .off; return true }
        if rest.count < declaration.count && declaration.starts(with: rest) { return false }
        skip = start
        guard rest.starts(with: declaration) else { state = .text; return true }
        guard let end = rest.firstRange(of: Array("?>".utf8)) else {
            if head.count >= Self.headLimit { state = .off; return true }
            return false
        }
        let encoding = Self.declaredEncoding(rest[rest.startIndex..<end.lowerBound])?.lowercased() ?? "utf-8"
        state = encoding == "utf-8" || encoding == "utf8" ? .text : .off
        return true
    }

    /// The `encoding` pseudo-attribute of an XML declaration, if it has one.
    static func declaredEncoding(_ declaration: ArraySlice<UInt8>) -> String? {
        guard let name = declaration.firstRange(of: Array("encoding".utf8)) else { return nil }
        var index = name.upperBound
        while index < declaration.endIndex, declaration[index] == 0x20 || declaration[index] == 0x09
                || declaration[index] == 0x0A || declaration[index] == 0x0D || declaration[index] == 0x3D {
            index += 1
        }
        guard index < declaration.endIndex, declaration[index] == 0x22 || declaration[index] == 0x27 else {
            return nil
        }
        let quote = declaration[index]
        guard let close = declaration[(index + 1)...].firstIndex(of: quote) else { return nil }
        return String(decoding: declaration[(index + 1)..<close], as: UTF8.self)
    }

    // MARK: - The scan
    /// Scans `input` from the current state, writing the rewritten stream into `output` from the first change on;
    /// false when nothing changed (then `output` is untouched and the input passes as it is).
    ///
    /// Every non-ASCII byte is checked, in markup too: at an invalid UTF-8 sequence (or U+FFFE, U+FFFF) libxml2
    /// stops with an error that quotes the bytes from there on, so from there on nothing is rewritten.
    private mutating func scan(_ input: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) -> Bool {
        if state == .head {
            let head = Array(input)
            guard decide(head) else {
                held = head
                return true
            }
        }
        var copied = 0      // input bytes before this index are in `output` (once `changed`)
        var changed = false
        var index = skip
        skip = 0
        let count = input.count
        let raw = UnsafeRawBufferPointer(input)
        /// Holds the incomplete sequence at `index` for the next chunk.
        func holdRest() {
            changed = true
            output.append(contentsOf: input[copied..<index])
            held = Array(input[index..<count])
            copied = count
            index = count
        }
        /// Steps over the non-ASCII character at `index`: false when the bytes from there on pass as they are.
        func stepOverCharacter() -> Bool {
            switch Self.character(input, at: index) {
            case .character(let length, _): index += length; return true
            case .incomplete: holdRest(); return false
            case .invalid: state = .off; return false
            }
        }
        while index < count {
            switch state {
            case .text:
                index = Self.firstTextStop(raw, from: index)
                guard index < count else { break }
                if input[index] == UInt8(ascii: "<") {
                    state = .open
                    textReferences = 0
                    index += 1
                    continue
                }
                guard case .character(let length, let scalar) = Self.character(input, at: index),
                      textReferences < Self.referencesPerText else {
                    _ = stepOverCharacter()
                    continue
                }
                // `&amp京`: part of a reference's name, which libxml2 fails on (quoting the name).
                if continuesReference(input, at: index) {
                    state = .off
                    continue
                }
                if !changed { output.reserveCapacity(count + count / 16); changed = true }
                output.append(contentsOf: input[copied..<index])
                let before = output.count
                Self.appendReference(scalar, to: &output)
                references.append(Reference(end: written + output.count, extra: output.count - before - 1))
                textReferences += 1
                rewritten += 1
                index += length
                copied = index
            case .open:
                switch input[index] {
                case UInt8(ascii: "!"): state = .bang; index += 1
                case UInt8(ascii: "?"): state = .section(closer: UInt8(ascii: "?"), run: 0); index += 1
                default: state = .tag(quote: 0)  // a start or end tag: its first byte is the tag's
                }
            case .bang:
                let byte = input[index]
                index += 1
                switch byte {
                // The second `-` of `<!--` does not count towards the closing `--`.
                case UInt8(ascii: "-"): state = .section(closer: UInt8(ascii: "-"), run: -1)
                case UInt8(ascii: "["): state = .section(closer: UInt8(ascii: "]"), run: 0)
                default: state = .off  // a document type declaration (or markup libxml2 refuses)
                }
            case .section(let closer, let run):
                let byte = input[index]
                if byte >= 0x80 {
                    if stepOverCharacter() { state = .section(closer: closer, run: 0) }
                    continue
                }
                index += 1
                let needed = Self.closers(before: closer)
                if byte == closer {
                    state = .section(closer: closer, run: min(run + 1, needed))
                } else if byte == UInt8(ascii: ">") && run >= needed {
                    state = .text
                } else {
                    state = .section(closer: closer, run: 0)
                }
            case .tag(let quote):
                index = Self.firstTagStop(raw, from: index, quote: quote)
                guard index < count else { break }
                let byte = input[index]
                if byte >= 0x80 {
                    _ = stepOverCharacter()
                    continue
                }
                index += 1
                if quote != 0 {
                    state = .tag(quote: 0)  // the closing quote
                } else if byte == UInt8(ascii: ">") {
                    state = .text
                } else {
                    state = .tag(quote: byte)  // an opening quote
                }
            case .head, .off:
                index = count
            }
        }
        referenceOpen = state == .text && continuesReference(input, at: count - held.count)
        guard changed else { return false }
        output.append(contentsOf: input[copied..<count])
        written += output.count
        return true
    }

    /// Whether the bytes before `index` end in `&` and name characters (`&amp`, `&#x4E`): a non-ASCII character at
    /// `index` would continue a reference's name.
    private func continuesReference(_ input: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        var before = index
        while before > 0 {
            let byte = input[before - 1]
            if byte == UInt8(ascii: "&") { return true }
            let isName = byte >= 0x80 || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "#")
            guard isName else { return false }
            before -= 1
        }
        return referenceOpen
    }

    // MARK: - Bytes

    /// How many `closer`s end a section before its `>`: one `?` (`?>`), else two (`-->`, `]]>`).
    private static func closers(before closer: UInt8) -> Int {
        closer == UInt8(ascii: "?") ? 1 : 2
    }

    /// The index of the first `<` or non-ASCII byte at or after `start`, or the end.
    @inline(__always)
    private static func firstTextStop(_ raw: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        let high: UInt64 = 0x8080_8080_8080_8080
        while index + 8 <= raw.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let stops = (word & high) | equal(word, 0x3C)
            if stops != 0 { return index + stops.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < raw.count, raw[index] < 0x80, raw[index] != 0x3C { index += 1 }
        return index
    }

    /// The index of the first non-ASCII byte at or after `start`, or of the first that ends `quote` (when not 0),
    /// or else of the first `>`, `"` or `'`; or the end.
    @inline(__always)
    private static func firstTagStop(_ raw: UnsafeRawBufferPointer, from start: Int, quote: UInt8) -> Int {
        var index = start
        while index + 8 <= raw.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let quotes = quote != 0 ? equal(word, quote) : equal(word, 0x3E) | equal(word, 0x22) | equal(word, 0x27)
            let stops = quotes | (word & 0x8080_8080_8080_8080)
            if stops != 0 { return index + stops.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < raw.count {
            let byte = raw[index]
            if byte >= 0x80 || (quote != 0 ? byte == quote : (byte == 0x3E || byte == 0x22 || byte == 0x27)) {
                return index
            }
            index += 1
        }
        return index
    }

    /// 0x80 in each byte of `word` equal to `byte`, 0 in the others (exact per byte: `(b & 0x7F) + 0x7F` sets a
    /// byte's high bit for any other low seven bits without carrying into the next, `| b` for a high bit).
    @inline(__always)
    private static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let x = word ^ (UInt64(byte) &* 0x0101_0101_0101_0101)
        return ~(((x & low7) &+ low7) | x) & ~low7
    }

    /// What the bytes from a non-ASCII byte on hold.
    enum Character: Equatable {
        /// A character XML allows: its length in bytes and its scalar value.
        case character(length: Int, scalar: UInt32)
        /// The start of a valid sequence the chunk ends in.
        case incomplete
        /// Not UTF-8, or U+FFFE or U+FFFF (libxml2 reports either).
        case invalid
    }

    /// The character whose UTF-8 sequence starts at `index` (a non-ASCII byte).
    static func character(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Character {
        let lead = bytes[index]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF  // the second byte's range
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE, 0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return .invalid
        }
        var scalar = UInt32(lead) & (0xFF >> (length + 1))
        for offset in 1..<length {
            guard index + offset < bytes.count else { return .incomplete }
            let byte = bytes[index + offset]
            if offset == 1 ? !(low...high).contains(byte) : byte & 0xC0 != 0x80 { return .invalid }
            scalar = scalar << 6 | UInt32(byte & 0x3F)
        }
        return scalar == 0xFFFE || scalar == 0xFFFF ? .invalid : .character(length: length, scalar: scalar)
    }

    /// Appends `&#x` + `scalar` in upper-case hexadecimal + `;`.
    static func appendReference(_ scalar: UInt32, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "&"))
        output.append(UInt8(ascii: "#"))
        output.append(UInt8(ascii: "x"))
        var shift = (32 - scalar.leadingZeroBitCount + 3) / 4 * 4 - 4
        while shift >= 0 {
            let digit = UInt8((scalar >> UInt32(shift)) & 0xF)
            output.append(digit < 10 ? 0x30 + digit : 0x37 + digit)
            shift -= 4
        }
        output.append(UInt8(ascii: ";"))
    }
}
