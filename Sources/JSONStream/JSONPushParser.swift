// The only file that imports CYajl: every pointer and C call of the JSONStream module lives here (and in the
// scanner it drives).
internal import CYajl
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A streaming JSON push parser over yajl: feed it chunks split anywhere, it calls its delegate per token.
///
/// Not thread-safe: one thread drives a parser. (The per-event properties skip the runtime exclusivity check:
/// they are only touched from `feed`/`finish` and the delegate calls those make, never concurrently.)
///
/// Strict: RFC 8259 JSON (no comments, no trailing commas, no `NaN`), strict UTF-8 in strings (see
/// `JSONInputScanner`), nesting and token length bounded by `JSONStreamOptions`. A UTF-8 byte order mark at
/// the very start is skipped (RFC 8259 §8.1 allows it). Memory is bounded by the longest token, whatever the
/// document's size.
package final class JSONPushParser {
    /// The receiver of events; owned by the parser (the delegate must not own the parser).
    package let delegate: any JSONStreamDelegate
    package let options: JSONStreamOptions

    /// The yajl handle; owned here, freed in `deinit`. Set once in `init` (yajl takes the context pointer, this
    /// parser, at allocation, so the handle can only be made once the parser exists).
    @exclusivity(unchecked) private var allocated: yajl_handle?
    private var handle: yajl_handle { allocated.unsafelyUnwrapped }
    /// Runs ahead of yajl over each chunk: UTF-8, surrogates, control characters, lines.
    private var scanner = JSONInputScanner()
    /// The first failure (yajl error, scanner issue, limit or delegate error); the parser is stopped once set.
    @exclusivity(unchecked) private var failure: (any Error)?
    private var finished = false
    /// The first bytes of the text while they could still be a byte order mark.
    private var head: [UInt8] = []
    private var headDecided = false

    /// Open objects and arrays.
    @exclusivity(unchecked) private var openObjects = 0
    @exclusivity(unchecked) private var openArrays = 0
    /// Absolute offset just past the last event's token.
    @exclusivity(unchecked) private var eventEnd = 0
    /// Whether everything after the last event is whitespace (an empty JSON Lines text is fine).
    private var tailIsBlank = true
    /// Scanned bytes of a long string not yet given to yajl, their absolute offset and line.
    private var held: [UInt8] = []
    private var heldStart = 0
    private var heldLine = 1
    private var heldLineStart = 0

    /// The chunk yajl is parsing (set during `feed` only), its absolute offset, and the line state at its start.
    @exclusivity(unchecked) private var chunk: UnsafeBufferPointer<UInt8>?
    @exclusivity(unchecked) private var chunkStart = 0
    @exclusivity(unchecked) private var chunkLine = 1
    @exclusivity(unchecked) private var chunkLineStart = 0
    /// A forward-only line counter inside the chunk: positions asked in order cost one pass in all.
    @exclusivity(unchecked) private var cursorOffset = 0
    @exclusivity(unchecked) private var cursorLine = 1
    @exclusivity(unchecked) private var cursorLineStart = 0

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Creates a parser that reports to `delegate`.
    package init(delegate: any JSONStreamDelegate, options: JSONStreamOptions = JSONStreamOptions()) throws {
        precondition(options.maxDepth > 0 && options.maxValueBytes > 0, "JSONStreamOptions limits must be positive")
        self.delegate = delegate
        self.options = options
        guard let handle = yajl_alloc(jsonCallbacks, nil, Unmanaged.passUnretained(self).toOpaque()) else {
            throw JSONStreamError("cannot create a JSON parser (out of memory)", line: 0, column: 0)
        }
        allocated = handle
        if options.allowsMultipleValues {
            guard mlsfeed_yajl_allow_multiple_values(handle, 1) != 0 else {
                throw JSONStreamError("cannot configure the JSON parser", line: 0, column: 0)
            }
        }
    }

    deinit {
        if let allocated { yajl_free(allocated) }
    }

    /// Parses the next chunk of the text (any split, even one byte at a time); throws the first error.
    package func feed(_ bytes: ArraySlice<UInt8>) throws {
        if let failure { throw failure }
        precondition(!finished, "JSONPushParser.feed after finish")
        guard !headDecided else { return try parse(bytes) }
        let taken = min(3 - head.count, bytes.count)
        head.append(contentsOf: bytes.prefix(taken))
        let rest = bytes.dropFirst(taken)
        // Two bytes at least (a zero byte among them tells UTF-16 or UTF-32), three when they may be a BOM or
        // UTF-32LE (`7B 00 00`) rather than UTF-16LE (`7B 00 22`).
        if head.count < 2 || (head.count < 3 && (head == Array(Self.byteOrderMark.prefix(head.count))
                                                  || (head[0] != 0 && head[1] == 0))) { return }
        try decideHead()
        try parse(rest)
    }

    /// Ends the text: a truncated document (or none at all, unless several values are allowed) throws here.
    package func finish() throws {
        if let failure { throw failure }
        if finished { return }
        finished = true
        if !headDecided { try decideHead() }
        try pushHeld()
        beginChunk(nil, at: scanner.offset, line: scanner.line, lineStart: scanner.lineStart)
        let status = yajl_complete_parse(handle)
        if let failure { throw failure }
        if status == yajl_status_ok {
            // With several values allowed, yajl takes a string cut off after a complete value for the end.
            guard scanner.isInString else { return }
            throw record(error(at: scanner.offset, endOfInputMessage))
        }
        let message = yajlMessage()
        guard message.contains("premature EOF") else { throw record(yajlError(message)) }
        let open = openObjects + openArrays
        if options.allowsMultipleValues && open == 0 && tailIsBlank && !scanner.isInString { return }
        throw record(error(at: scanner.offset, endOfInputMessage))
    }

    /// During an event: the line and column of the last byte of its token (the `{` of `startObject`, the
    /// closing quote of a string, the last digit of a number).
    package var position: (line: Int, column: Int) {
        location(of: max(eventEnd - 1, 0))
    }

    /// Objects and arrays open around the current event (a top-level `{` makes it 1).
    package var depth: Int { openObjects + openArrays }

    /// Bytes of the text fed and scanned so far.
    package var bytesRead: Int { scanner.offset + (headDecided ? 0 : head.count) }

    // MARK: - Feeding yajl

    /// Skips a byte order mark, or parses the held bytes as ordinary text; refuses a UTF-16 or UTF-32 text.
    private func decideHead() throws {
        headDecided = true
        if let encoding = Self.wideEncoding(of: head) {
            throw record(JSONStreamError("JSON must be UTF-8, but this text is \(encoding): convert it first (iconv "
                                         + "-f \(encoding) -t UTF-8)", line: 1, column: 1))
        }
        if head == Self.byteOrderMark {
            scanner.skip(head.count)
            eventEnd = head.count
        } else {
            try parse(head[...])
        }
        head = []
    }

    /// Scans a chunk and gives it to yajl, or holds it while a long string goes on.
    private func parse(_ bytes: ArraySlice<UInt8>) throws {
        guard !bytes.isEmpty else { return }
        let start = scanner.offset, line = scanner.line, lineStart = scanner.lineStart
        let issue = bytes.withUnsafeBufferPointer { scanner.scan($0) }
        if issue == nil && scanner.isInString && scanner.stringStart < start {
            // The string already spans a whole chunk. yajl reads a split token again from its start on every
            // call (quadratic in the chunks it spans), so hold the bytes and give them over in one piece.
            if held.isEmpty { (heldStart, heldLine, heldLineStart) = (start, line, lineStart) }
            held.append(contentsOf: bytes)
            if scanner.offset - eventEnd > options.maxValueBytes {
                try held.withUnsafeBufferPointer { buffer in
                    beginChunk(buffer, at: heldStart, line: heldLine, lineStart: heldLineStart)
                    defer { chunk = nil }
                    throw record(error(at: eventEnd + options.maxValueBytes, tooLongMessage))
                }
            }
            return
        }
        try pushHeld()
        try bytes.withUnsafeBufferPointer { buffer in
            try push(buffer, at: start, line: line, lineStart: lineStart, issue: issue)
        }
    }

    /// Gives yajl the bytes held for a long string.
    private func pushHeld() throws {
        guard !held.isEmpty else { return }
        var pending: [UInt8] = []
        swap(&pending, &held)
        try pending.withUnsafeBufferPointer { buffer in
            try push(buffer, at: heldStart, line: heldLine, lineStart: heldLineStart, issue: nil)
        }
    }

    /// Gives yajl a scanned chunk (up to the scanner's issue, which is then thrown) and checks the length limit.
    private func push(_ buffer: UnsafeBufferPointer<UInt8>, at start: Int, line: Int, lineStart: Int,
                      issue: JSONInputScanner.Issue?) throws {
        beginChunk(buffer, at: start, line: line, lineStart: lineStart)
        defer { chunk = nil }
        // An issue may point back into an earlier chunk (the start of a string's bad sequence or escape): yajl
        // has not seen that string's end yet, so it has reported nothing past the issue.
        let usable = issue.map { max($0.offset - start, 0) } ?? buffer.count
        let status = yajl_parse(handle, buffer.baseAddress, usable)
        if let failure { throw failure }
        if status != yajl_status_ok { throw record(yajlError(yajlMessage())) }
        if let issue { throw record(error(at: issue.offset, issue.message)) }
        let end = start + buffer.count
        if end - eventEnd > options.maxValueBytes {
            throw record(error(at: eventEnd + options.maxValueBytes, tooLongMessage))
        }
        if eventEnd >= start {
            tailIsBlank = Self.isBlank(buffer[(eventEnd - start)...])
        } else if tailIsBlank {
            tailIsBlank = Self.isBlank(buffer[...])
        }
    }

    private static func isBlank(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    }

    /// Makes `buffer` (nil: the end of the text), which starts at absolute offset `start` on `line`, the chunk
    /// that positions refer to.
    private func beginChunk(_ buffer: UnsafeBufferPointer<UInt8>?, at start: Int, line: Int, lineStart: Int) {
        chunk = buffer
        chunkStart = start
        chunkLine = line
        chunkLineStart = lineStart
        cursorOffset = chunkStart
        cursorLine = chunkLine
        cursorLineStart = chunkLineStart
    }

    /// Line and column of an absolute offset inside the current chunk (or on the line where it starts).
    private func location(of offset: Int) -> (line: Int, column: Int) {
        if offset < cursorOffset {
            cursorOffset = chunkStart
            cursorLine = chunkLine
            cursorLineStart = chunkLineStart
        }
        if let chunk, let base = chunk.baseAddress {
            let end = min(offset, chunkStart + chunk.count)
            while cursorOffset < end {
                guard let hit = memchr(base + (cursorOffset - chunkStart), 0x0A, end - cursorOffset) else {
                    cursorOffset = end
                    break
                }
                let newline = chunkStart + (UnsafeRawPointer(hit) - UnsafeRawPointer(base))
                cursorLine += 1
                cursorLineStart = newline + 1
                cursorOffset = newline + 1
            }
        }
        return (cursorLine, offset - cursorLineStart + 1)
    }

    private func error(at offset: Int, _ message: String) -> JSONStreamError {
        let (line, column) = location(of: offset)
        return JSONStreamError(message, line: line, column: column)
    }

    /// Records the first failure and returns it (to throw).
    private func record(_ error: JSONStreamError) -> JSONStreamError {
        if failure == nil { failure = error }
        return error
    }

    /// Records a failure from inside a callback; yajl stops when the callback returns 0.
    private func fail(_ error: any Error) {
        if failure == nil { failure = error }
    }

    /// yajl's message for its error, on one line, without the trailing period.
    private func yajlMessage() -> String {
        guard let text = yajl_get_error(handle, 0, nil, 0) else { return "invalid JSON" }
        defer { yajl_free_error(handle, text) }
        var message = String(cString: text).split(whereSeparator: \.isNewline).joined(separator: " ")
        while message.last == "." || message.last == " " { message.removeLast() }
        return message
    }

    /// yajl's error, placed where yajl stopped in the current chunk. yajl's lexer puts back the character it
    /// refuses inside a token (a bad digit, escape or literal letter), so that one is the next byte; for an
    /// invalid character between tokens and for grammar errors it is the last byte consumed (a token ended by
    /// the first byte of this chunk ends in the previous one). Either way the same byte whatever the chunks.
    private func yajlError(_ message: String) -> JSONStreamError {
        let consumed = Int(yajl_get_bytes_consumed(handle))
        let putBack = message.hasPrefix("lexical error") && !message.hasSuffix("invalid char in json text")
        let offset = chunkStart + consumed - (putBack ? 0 : 1)
        return error(at: min(max(offset, 0), chunkStart + (chunk?.count ?? 0)), message)
    }

    /// The encoding of a text whose first bytes (two or three) are a UTF-16 byte order mark or hold a zero byte,
    /// which UTF-8 JSON never starts with: `UTF-16LE` (`{` as `7B 00`), `UTF-16BE`, `UTF-32LE`, `UTF-32BE`.
    static func wideEncoding(of head: [UInt8]) -> String? {
        guard head.count >= 2 else { return nil }
        switch (head[0], head[1]) {
        case (0xFF, 0xFE): return "UTF-16LE"
        case (0xFE, 0xFF): return "UTF-16BE"
        case (0, 0): return "UTF-32BE"
        case (0, _): return "UTF-16BE"
        case (_, 0): return head.count >= 3 && head[2] == 0 ? "UTF-32LE" : "UTF-16LE"
        default: return nil
        }
    }

    private var endOfInputMessage: String {
        var open: [String] = []
        if openObjects > 0 { open.append(openObjects == 1 ? "1 object" : "\(openObjects) objects") }
        if openArrays > 0 { open.append(openArrays == 1 ? "1 array" : "\(openArrays) arrays") }
        if !open.isEmpty { return "unexpected end of input: \(open.joined(separator: " and ")) not closed" }
        if scanner.isInString { return "unexpected end of input inside a string" }
        if tailIsBlank && eventEnd <= Self.byteOrderMark.count { return "no JSON value (empty input)" }
        return "unexpected end of input"
    }

    private var tooLongMessage: String {
        "a string or number longer than \(options.maxValueBytes) bytes"
    }

    // MARK: - Events (called by the yajl callbacks below)

    /// Notes an event's end; false (after recording the failure) when the token broke the length limit.
    @inline(__always)
    private func noteEvent() -> Bool {
        guard failure == nil else { return false }
        let end = min(chunkStart + Int(yajl_get_bytes_consumed(handle)), chunkStart + (chunk?.count ?? 0))
        if end - eventEnd > options.maxValueBytes {
            fail(error(at: eventEnd + options.maxValueBytes, tooLongMessage))
            return false
        }
        eventEnd = end
        return true
    }

    fileprivate func handleOpen(object: Bool) -> Int32 {
        guard noteEvent() else { return 0 }
        if object { openObjects += 1 } else { openArrays += 1 }
        if openObjects + openArrays > options.maxDepth {
            fail(error(at: eventEnd - 1, "nesting deeper than \(options.maxDepth) levels"))
            return 0
        }
        do {
            if object { try delegate.startObject(parser: self) } else { try delegate.startArray(parser: self) }
        } catch {
            fail(error)
            return 0
        }
        return 1
    }

    fileprivate func handleClose(object: Bool) -> Int32 {
        guard noteEvent() else { return 0 }
        if object { openObjects -= 1 } else { openArrays -= 1 }
        do {
            if object { try delegate.endObject(parser: self) } else { try delegate.endArray(parser: self) }
        } catch {
            fail(error)
            return 0
        }
        return 1
    }

    fileprivate func handleText(_ kind: TextKind, _ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
        guard noteEvent() else { return 0 }
        let buffer = UnsafeBufferPointer(start: bytes, count: count)
        do {
            switch kind {
            case .key: try delegate.key(buffer.span, parser: self)
            case .string: try delegate.string(buffer.span, parser: self)
            case .number: try delegate.number(buffer.span, parser: self)
            }
        } catch {
            fail(error)
            return 0
        }
        return 1
    }

    fileprivate func handleBoolean(_ value: Bool) -> Int32 {
        guard noteEvent() else { return 0 }
        do { try delegate.boolean(value, parser: self) } catch {
            fail(error)
            return 0
        }
        return 1
    }

    fileprivate func handleNull() -> Int32 {
        guard noteEvent() else { return 0 }
        do { try delegate.null(parser: self) } catch {
            fail(error)
            return 0
        }
        return 1
    }

    fileprivate enum TextKind {
        case key, string, number
    }
}

// MARK: - yajl callbacks (capture nothing: the parser arrives as yajl's context pointer)

private func owner(_ context: UnsafeMutableRawPointer?) -> Unmanaged<JSONPushParser> {
    Unmanaged<JSONPushParser>.fromOpaque(context!)
}

/// The callback table: yajl keeps the pointer, so it lives as long as the process.
nonisolated(unsafe) private let jsonCallbacks: UnsafeMutablePointer<yajl_callbacks> = {
    let table = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
    table.initialize(to: yajl_callbacks(
        yajl_null: { owner($0)._withUnsafeGuaranteedRef { $0.handleNull() } },
        yajl_boolean: { context, value in owner(context)._withUnsafeGuaranteedRef { $0.handleBoolean(value != 0) } },
        yajl_integer: nil,
        yajl_double: nil,
        yajl_number: { context, text, count in
            let bytes = UnsafeRawPointer(text)?.assumingMemoryBound(to: UInt8.self)
            return owner(context)._withUnsafeGuaranteedRef { $0.handleText(.number, bytes, count) }
        },
        yajl_string: { context, bytes, count in
            owner(context)._withUnsafeGuaranteedRef { $0.handleText(.string, bytes, count) }
        },
        yajl_start_map: { owner($0)._withUnsafeGuaranteedRef { $0.handleOpen(object: true) } },
        yajl_map_key: { context, bytes, count in
            owner(context)._withUnsafeGuaranteedRef { $0.handleText(.key, bytes, count) }
        },
        yajl_end_map: { owner($0)._withUnsafeGuaranteedRef { $0.handleClose(object: true) } },
        yajl_start_array: { owner($0)._withUnsafeGuaranteedRef { $0.handleOpen(object: false) } },
        yajl_end_array: { owner($0)._withUnsafeGuaranteedRef { $0.handleClose(object: false) } }
    ))
    return table
}()
