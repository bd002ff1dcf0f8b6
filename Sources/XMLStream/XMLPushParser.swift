// The only file that imports CLibXML2: every pointer and C call of the XMLStream module lives here.
internal import CLibXML2

/// libxml2 wants `xmlInitParser` once per process before the first parser (it is idempotent and thread-safe).
private let libxml2Initialized: Bool = {
    xmlInitParser()
    return true
}()

/// A streaming, secure libxml2 SAX2 push parser: feed it chunks, it calls its delegate per element.
///
/// Not thread-safe: one thread drives a parser. (The per-event properties skip the runtime exclusivity check:
/// they are only touched from `feed`/`finish` and the delegate calls those make, never concurrently.)
///
/// Security (defusedxml's defaults): no network (`XML_PARSE_NONET`), no DTD loading or validation, no entity
/// substitution; a document that declares any entity (general or parameter, internal or external, parsed or
/// unparsed), or whose document type declaration names an external subset (`SYSTEM` or `PUBLIC`), is refused at the
/// declaration, before the parser goes further. An element nested deeper than `maxDepth` is refused at its start
/// tag (libxml2's push parser does not bound the depth itself, and the delegates' trees must stay shallow enough to
/// walk). The five predefined entities and numeric character references are ordinary text.
public final class XMLPushParser {
    /// The receiver of element events; owned by the parser (the delegate must not own the parser).
    public let delegate: any XMLStreamDelegate
    /// When true, character data and CDATA are appended to `text` as UTF-8 bytes.
    @exclusivity(unchecked) public var capturesText = false
    /// When true (and `capturesText` false), character data goes to the delegate's `characters(_:parser:)`.
    @exclusivity(unchecked) public var streamsText = false
    /// Text captured since the last `clearText()`.
    @exclusivity(unchecked) public private(set) var text: [UInt8] = []
    /// When true, control characters XML 1.0 forbids are removed from input bytes before parsing.
    public let sanitize: Bool
    /// The deepest nesting accepted (the root element is level 1); a deeper element is refused at its start tag.
    public let maxDepth: Int
    /// `maxDepth` when a caller names none: libxml2's own bound without `XML_PARSE_HUGE`.
    public static let defaultMaxDepth = 256
    /// How many forbidden control characters `sanitize` removed so far.
    public private(set) var sanitizedCharacters = 0
    /// Rewrites non-ASCII characters of character data as references before libxml2 reads them (its fast path).
    @exclusivity(unchecked) private var escaper: CharacterReferenceEscaper
    /// Characters `CharacterReferenceEscaper` rewrote as references so far.
    package var charactersRewritten: Int { escaper.rewritten }
    /// The rewritten chunk being parsed (kept for its capacity).
    private var rewritten: [UInt8] = []
    /// References libxml2 has read whose bytes it may still hold (for `positionOfLast`), oldest first.
    @exclusivity(unchecked) private var readReferences: [CharacterReferenceEscaper.Reference] = []
    /// When `readReferences` is next pruned of those libxml2 no longer holds (doubling: amortized O(1) each).
    @exclusivity(unchecked) private var pruneReadReferencesAt = 64

    /// The parser context; owned here, freed in `deinit`.
    private let context: xmlParserCtxtPtr
    /// The first failure (libxml2 error, refused declaration or delegate error); the parser is stopped once set.
    @exclusivity(unchecked) private var failure: (any Error)?
    private var finished = false

    /// Interned names: libxml2 hands out names from its dictionary, so pointers repeat; verified by bytes.
    /// Only pointers the context's dictionary owns are keys: those strings live as long as the context, so a
    /// pointer always names the same bytes.
    @exclusivity(unchecked) private var nameByPointer: [UnsafeRawPointer: Int] = [:]
    /// A cache in front of `nameByPointer` (a few dozen names make up nearly every event): a buffer owned here
    /// (allocated in `init`, freed in `deinit`), read without an array's bounds and uniqueness checks.
    private let nameCache: UnsafeMutableBufferPointer<CachedName>
    private var nameByString: [String: XMLName] = [:]
    /// Interned names by id.
    private var nameByID: [String] = []
    /// The namespace URI of the start tag being reported, interned (valid during `startElement` only).
    public var namespace: XMLName? { namespaceID < 0 ? nil : XMLName(id: namespaceID, string: nameByID[namespaceID]) }
    /// The id of `namespace`, or -1: an id, not a name, so that no event retains and releases the URI's string.
    public var namespaceID: Int { currentNamespace }
    /// Kept behind `namespaceID` (another module reading the stored property checks exclusivity at run time,
    /// about 60 instructions an element).
    @exclusivity(unchecked) private var currentNamespace = -1
    /// The last namespace URI a start tag had (a pointer libxml2's dictionary owns) and its id.
    @exclusivity(unchecked) private var lastNamespace = CachedName()
    /// Attributes of the start tag being reported (valid during `startElement` only).
    @exclusivity(unchecked) private var currentAttributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    @exclusivity(unchecked) private var currentAttributeCount = 0
    /// The open elements, innermost last: their start tags' lines (for the message about a truncated document) and
    /// their names' ids (an end tag is reported with its start tag's id, not looked up again).
    @exclusivity(unchecked) private var openElements: [OpenElement] = []
    @exclusivity(unchecked) private var sawElement = false

    /// Creates a parser; `encoding` (e.g. `ISO-8859-1`) overrides what the document declares.
    ///
    /// `rewritesNonASCII` passes the input through `CharacterReferenceEscaper` (same events, faster on long texts
    /// with a few non-ASCII characters; slower on many short texts). Not with an overriding `encoding`.
    /// `maxDepth` bounds the nesting (at least 1).
    public init(delegate: any XMLStreamDelegate, encoding: String? = nil, sanitize: Bool = false,
                rewritesNonASCII: Bool = false, maxDepth: Int = XMLPushParser.defaultMaxDepth) throws {
        precondition(libxml2Initialized)
        precondition(maxDepth > 0, "XMLPushParser.maxDepth must be positive")
        self.delegate = delegate
        self.sanitize = sanitize
        self.maxDepth = maxDepth
        // An overriding encoding is read through a converter, whose input the escaper's offsets would not match.
        escaper = CharacterReferenceEscaper(enabled: rewritesNonASCII && encoding == nil)
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = xmlStreamStartElement
        handler.endElementNs = xmlStreamEndElement
        handler.characters = xmlStreamCharacters
        handler.ignorableWhitespace = xmlStreamCharacters
        handler.cdataBlock = xmlStreamCharacters
        handler.internalSubset = xmlStreamDocumentType
        handler.entityDecl = xmlStreamEntityDeclaration
        handler.unparsedEntityDecl = xmlStreamUnparsedEntityDeclaration
        handler.resolveEntity = xmlStreamResolveEntity
        handler.serror = xmlStreamStructuredError
        guard let context = xmlCreatePushParserCtxt(&handler, nil, nil, 0, nil) else {
            throw XMLStreamError("cannot create an XML parser (out of memory)", line: 0, column: 0)
        }
        self.context = context
        nameCache = .allocate(capacity: Self.cacheSlots)
        nameCache.initialize(repeating: CachedName())
        context.pointee.userData = Unmanaged.passUnretained(self).toOpaque()
        var options = Int32(XML_PARSE_NONET.rawValue)
        if encoding != nil { options |= Int32(XML_PARSE_IGNORE_ENC.rawValue) }
        try check(xmlCtxtUseOptions(context, options), "cannot set the XML parser options")
        if let encoding {
            guard let encoder = xmlFindCharEncodingHandler(encoding) else {
                throw XMLStreamError("unsupported encoding \"\(encoding)\"", line: 0, column: 0)
            }
            try check(xmlSwitchToEncoding(context, encoder), "cannot switch the XML parser to \(encoding)")
        }
    }

    deinit {
        releaseDocument()
        xmlFreeParserCtxt(context)
        nameCache.deinitialize()
        nameCache.deallocate()
    }

    /// Whether the context still holds a document libxml2 built by itself (see `releaseDocument`).
    var holdsDocument: Bool { context.pointee.myDoc != nil }

    /// Whether libxml2 can read documents declared (or overridden) as `encoding`, an IANA name like `ISO-8859-1`.
    public static func supportsEncoding(_ encoding: String) -> Bool {
        precondition(libxml2Initialized)
        guard let handler = xmlFindCharEncodingHandler(encoding) else { return false }
        xmlCharEncCloseFunc(handler)
        return true
    }

    /// Parses the next chunk of the document; throws the first error with its line and column.
    public func feed(_ bytes: ArraySlice<UInt8>) throws {
        if let failure { throw failure }
        precondition(!finished, "XMLPushParser.feed after finish")
        if sanitize, let cleaned = Self.removingForbiddenControls(bytes) {
            sanitizedCharacters += bytes.count - cleaned.count
            try pushRewriting(cleaned[...])
        } else {
            try pushRewriting(bytes)
        }
    }

    /// Pushes `bytes` through the escaper, a piece at a time (so that the rewritten copy stays small).
    private func pushRewriting(_ bytes: ArraySlice<UInt8>) throws {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let piece = bytes[offset..<min(bytes.endIndex, offset + Self.pieceSize)]
            offset = piece.endIndex
            if escaper.rewrite(piece, into: &rewritten) {
                if !rewritten.isEmpty { try push(rewritten[...], terminate: false) }
            } else {
                try push(piece, terminate: false)
            }
        }
    }

    /// Ends the document: a truncated document throws here.
    public func finish() throws {
        if let failure { throw failure }
        if finished { return }
        finished = true
        escaper.finish(into: &rewritten)
        try push(rewritten[...], terminate: true)
    }

    /// Interns `string`, giving the same `XMLName` the parser reports for that element or attribute name.
    public func name(_ string: String) -> XMLName {
        if let known = nameByString[string] { return known }
        let name = XMLName(id: nameByString.count, string: string)
        nameByString[string] = name
        nameByID.append(string)
        return name
    }

    /// How many names are interned: ids run from 0 to one less.
    public var internedCount: Int { nameByID.count }

    /// The interned name with id `id`.
    public func internedName(_ id: Int) -> String { nameByID[id] }

    /// The `XMLName` with id `id` (an id this parser reported or interned).
    public func name(id: Int) -> XMLName { XMLName(id: id, string: nameByID[id]) }

    /// Forgets captured text, keeping the buffer's capacity.
    public func clearText() {
        text.removeAll(keepingCapacity: true)
    }

    /// Forgets captured text from byte `index` on (a delegate that keeps several texts in the buffer).
    public func clearText(from index: Int) {
        text.removeSubrange(index...)
    }

    /// Hands the captured text over without copying it, keeping a copy of the bytes from `index` on as the new
    /// (shifted) text: a delegate can gather many elements' texts and take them in one go, mid-element too.
    ///
    /// The new text goes into `spare` (emptied) when given: an earlier text the delegate is done with, whose pages
    /// are already in memory where a new buffer of this size is mapped fresh and faulted in page by page.
    public func takeText(keepingFrom index: Int, reusing spare: consuming [UInt8] = []) -> [UInt8] {
        var kept = consume spare
        kept.removeAll(keepingCapacity: true)
        // Room for a little more than this text held (the next batch of texts is about as big). Not
        // `text.capacity`: malloc rounds a big block up to whole pages and the array reports that, so each new
        // text would ask for a page more than the last, and no spare would ever be big enough.
        if kept.capacity < text.count { kept.reserveCapacity(text.count + text.count / 4) }
        kept.append(contentsOf: text[index...])
        swap(&kept, &text)
        return kept
    }

    /// The parser's current input position (just after the last thing read): 1-based line and column.
    public var position: (line: Int, column: Int) {
        guard let input = context.pointee.input else { return (0, 0) }
        return (Int(input.pointee.line), Int(input.pointee.col))
    }

    /// The position just past the last byte libxml2 holds: `position` moved over the bytes it has not read yet,
    /// a reference the escaper wrote among them counting as the one character it stands for.
    private var endOfInput: (line: Int, column: Int) {
        guard let input = context.pointee.input, var scan = input.pointee.cur, let base = input.pointee.base,
              let end = input.pointee.end else {
            return position
        }
        var (line, column) = position
        var lineStart = Int(input.pointee.consumed) + (scan - base)
        while scan < end {
            if scan.pointee == UInt8(ascii: "\n") {
                line += 1
                column = 1
                lineStart = Int(input.pointee.consumed) + (scan - base) + 1
            } else if scan.pointee & 0xC0 != 0x80 {
                column += 1
            }
            scan += 1
        }
        var unread = escaper
        while let next = unread.nextReference {
            if next.end > lineStart { column -= next.extra }
            unread.dropReference()
        }
        return (line, column)
    }

    /// During `startElement`: the position of the start tag's `<`.
    public var startTagPosition: (line: Int, column: Int) {
        // An attribute value cannot hold a raw `<`, so the last `<` before the cursor opens this tag.
        positionOfLast([UInt8(ascii: "<")])
    }

    /// The position of the last `marker` before the cursor (in the bytes libxml2 still holds), else `position`.
    private func positionOfLast(_ marker: [UInt8]) -> (line: Int, column: Int) {
        guard let input = context.pointee.input, let cur = input.pointee.cur, let base = input.pointee.base,
              cur - base >= marker.count else {
            return position
        }
        let line = Int(input.pointee.line), column = Int(input.pointee.col)
        var open = cur - marker.count
        while open > base && !(0..<marker.count).allSatisfy({ open[$0] == marker[$0] }) { open -= 1 }
        guard (0..<marker.count).allSatisfy({ open[$0] == marker[$0] }) else { return (line, column) }
        var newlines = 0, characters = 0
        var scan = open
        while scan < cur {
            if scan.pointee == UInt8(ascii: "\n") { newlines += 1; characters = 0 }
            if scan.pointee & 0xC0 != 0x80 { characters += 1 }
            scan += 1
        }
        if newlines == 0 { return (line, max(1, column - characters)) }
        // The marked text spans lines: count the characters between the previous line end and the marker.
        var lineStart = open
        while lineStart > base && (lineStart - 1).pointee != UInt8(ascii: "\n") { lineStart -= 1 }
        // A character the escaper rewrote counts once, not as its reference's length.
        let consumed = Int(input.pointee.consumed)
        let (from, to) = (consumed + (lineStart - base), consumed + (open - base))
        var before = -readReferences.reduce(0) { $0 + ($1.end > from && $1.end <= to ? $1.extra : 0) }
        while lineStart < open {
            if lineStart.pointee & 0xC0 != 0x80 { before += 1 }
            lineStart += 1
        }
        return (line - newlines, before + 1)
    }

    /// During `startElement`: the start tag's attributes, in document order.
    public func attributes() -> [XMLAttribute] {
        var result: [XMLAttribute] = []
        result.reserveCapacity(currentAttributeCount)
        for index in 0..<currentAttributeCount {
            if let attribute = attribute(at: index) { result.append(attribute) }
        }
        return result
    }

    /// During `startElement`: how many attributes the start tag has.
    public var attributeCount: Int { currentAttributeCount }

    /// During `startElement`: calls `body` with each attribute's interned name's id (`XMLName.id`) and its value
    /// (decoded, UTF-8), in document order. No String per attribute; the span lives for the call only.
    public func forEachAttribute(_ body: (_ nameID: Int, _ value: Span<UInt8>) -> Void) {
        guard let attributes = currentAttributes else { return }
        for index in 0..<currentAttributeCount {
            guard let localName = attributes[index * 5], let start = attributes[index * 5 + 3],
                  let end = attributes[index * 5 + 4] else { continue }
            let raw = UnsafeBufferPointer(start: start, count: end - start)
            let id = lookUp(localName)
            if raw.contains(UInt8(ascii: "&")) {
                // Without entity substitution libxml2 hands every `&` of an attribute value over as `&#38;`.
                let text = Array(String(decoding: raw, as: UTF8.self).replacing("&#38;", with: "&").utf8)
                text.withUnsafeBufferPointer { body(id, $0.span) }
            } else {
                body(id, raw.span)
            }
        }
    }

    /// During `startElement`: the value of the attribute `name`, if the tag has it.
    public func attribute(_ name: String) -> String? {
        for index in 0..<currentAttributeCount {
            if let attribute = attribute(at: index), attribute.name == name { return attribute.value }
        }
        return nil
    }

    // MARK: - libxml2 plumbing

    private func attribute(at index: Int) -> XMLAttribute? {
        guard let attributes = currentAttributes, let localName = attributes[index * 5],
              let start = attributes[index * 5 + 3], let end = attributes[index * 5 + 4] else { return nil }
        var value = String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
        // Without entity substitution libxml2 hands every `&` of an attribute value over as `&#38;`.
        if value.utf8.contains(UInt8(ascii: "&")) { value = value.replacing("&#38;", with: "&") }
        return XMLAttribute(name: String(cString: localName), value: value)
    }

    /// The most bytes one `xmlParseChunk` call is given: 64 KiB (measured on a 100k-listing dump: peak heap −3.9
    /// MB, parse CPU no higher).
    package static let pieceSize = 1 << 16

    /// Passes bytes to `xmlParseChunk` and turns a failure into the error recorded for it.
    private func push(_ bytes: ArraySlice<UInt8>, terminate: Bool) throws {
        var offset = bytes.startIndex
        repeat {
            // In pieces of `pieceSize`: libxml2 copies what it is given into its input buffer before parsing, so
            // a whole 1 MiB chunk grew that buffer to 4 MiB; a piece at a time it stays near 128 KiB.
            let count = min(bytes.endIndex - offset, Self.pieceSize)
            let code = bytes[offset..<(offset + count)].withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    xmlParseChunk(context, chars.baseAddress, Int32(count),
                                  terminate && offset + count == bytes.endIndex ? 1 : 0)
                }
            }
            offset += count
            if failure != nil || code != 0 || terminate { releaseDocument() }
            if let failure { throw failure }
            try check(code, "the XML parser failed")
        } while offset < bytes.endIndex
    }

    /// Frees the document libxml2 makes for an entity declaration even in SAX mode ("expat compatibility"), which
    /// the context does not free; only once parsing has stopped, as libxml2 reads it while it parses.
    private func releaseDocument() {
        guard let document = context.pointee.myDoc else { return }
        context.pointee.myDoc = nil
        xmlFreeDoc(document)
    }

    /// The single checker of libxml2 return codes: 0 is success, anything else becomes an `XMLStreamError`.
    private func check(_ code: Int32, _ what: @autoclosure () -> String) throws {
        guard code != 0 else { return }
        if let failure { throw failure }
        let error: XMLStreamError
        if let last = xmlCtxtGetLastError(context), last.pointee.code != 0 {
            error = Self.streamError(last)
        } else {
            let (line, column) = position
            error = XMLStreamError("\(what()) (libxml2 code \(code))", line: line, column: column)
        }
        failure = error
        throw error
    }

    /// libxml2's push parser calls any truncation "Extra content at the end of the document": say what is open.
    private func explainTruncation(_ error: XMLStreamError, code: Int32) -> XMLStreamError {
        guard code == Int32(XML_ERR_DOCUMENT_END.rawValue) else { return error }
        if !sawElement { return XMLStreamError("Document is empty (no root element)", line: error.line,
                                               column: error.column) }
        guard let open = context.pointee.name,
              let line = openElements.last?.line else { return error }
        let message = "Premature end of data in tag \(String(cString: open)) line \(line)"
        // At the end of the input, wherever libxml2 stopped reading it (how much of a text it leaves unread depends
        // on the path it read the text by).
        let end = endOfInput
        return XMLStreamError(message, line: end.line, column: end.column)
    }

    private static func streamError(_ error: UnsafePointer<xmlError>) -> XMLStreamError {
        let raw = error.pointee.message.map { String(cString: $0) } ?? "XML error \(error.pointee.code)"
        let message = raw.split(whereSeparator: \.isNewline)
            .map { $0.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed() }
            .filter { !$0.isEmpty }
            .map { String($0) }
            .joined(separator: " ")
        return XMLStreamError(message, line: Int(error.pointee.line), column: Int(error.pointee.int2))
    }

    /// Records the first failure and halts libxml2 (safe from inside a SAX callback).
    private func fail(_ error: any Error) {
        guard failure == nil else { return }
        failure = error
        xmlStopParser(context)
    }

    /// The id of the name at `pointer` (ids, not `XMLName`s: copying a name retains and releases its string, which
    /// was two fifths of a syndication feed's reference counting).
    private func lookUp(_ pointer: UnsafePointer<xmlChar>) -> Int {
        let key = UnsafeRawPointer(pointer)
        // Open addressing from the pointer's Fibonacci hash: a name once in stays (no eviction between names that
        // share a slot, which sent a fifth of a syndication feed's lookups to the dictionary).
        let mask = nameCache.count - 1
        var slot = Int(truncatingIfNeeded: (UInt(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> Self.cacheShift)
        while let cached = nameCache[slot].pointer {
            if cached == key { return nameCache[slot].id }
            slot = (slot + 1) & mask
        }
        if let id = nameByPointer[key] { return id }  // kept out of the cache once it was half full
        let id = name(String(cString: pointer)).id
        // libxml2 hands out element, attribute and namespace names from its dictionary; anything else is looked up
        // by its bytes every time.
        if xmlDictOwns(context.pointee.dict, pointer) == 1 {
            nameByPointer[key] = id
            if nameByPointer.count <= nameCache.count / 2 { nameCache[slot] = CachedName(pointer: key, id: id) }
        }
        return id
    }

    /// Slots of `nameCache` (a power of two) and the shift that turns a 64-bit hash into a slot.
    private static let cacheSlots = 1024
    private static let cacheShift = 64 - cacheSlots.trailingZeroBitCount

    /// A slot of `nameCache`.
    private struct CachedName {
        var pointer: UnsafeRawPointer?
        var id = 0
    }

    fileprivate func handleStart(
        _ localName: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?, _ count: Int32,
        _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        guard failure == nil, let localName else { return }
        currentAttributes = attributes
        currentAttributeCount = Int(count)
        if let uri {
            // Nearly every element of a document is in the namespace of the one before: a one-entry cache.
            if UnsafeRawPointer(uri) == lastNamespace.pointer {
                currentNamespace = lastNamespace.id
            } else {
                currentNamespace = lookUp(uri)
                if xmlDictOwns(context.pointee.dict, uri) == 1 {
                    lastNamespace = CachedName(pointer: UnsafeRawPointer(uri), id: currentNamespace)
                }
            }
        } else {
            currentNamespace = -1
        }
        if openElements.count >= maxDepth {
            let (line, column) = startTagPosition
            fail(XMLStreamError("nesting deeper than \(maxDepth)", line: line, column: column))
            return
        }
        let id = lookUp(localName)
        openElements.append(OpenElement(line: Int(context.pointee.input?.pointee.line ?? 0), id: id))
        sawElement = true
        defer {
            currentAttributes = nil
            currentAttributeCount = 0
            currentNamespace = -1
        }
        do { try delegate.startElement(id: id, parser: self) } catch { fail(error) }
    }

    fileprivate func handleEnd(_ localName: UnsafePointer<xmlChar>?) {
        guard failure == nil, let localName else { return }
        // libxml2 reports an end tag only for the element it closes (a mismatched one is a fatal error).
        let id = openElements.popLast()?.id ?? lookUp(localName)
        do { try delegate.endElement(id: id, parser: self) } catch { fail(error) }
    }

    /// An element whose end tag is still to come.
    private struct OpenElement {
        var line: Int
        var id: Int
    }

    fileprivate func handleCharacters(_ bytes: UnsafePointer<xmlChar>?, _ count: Int32) {
        guard let bytes, count > 0 else { return }
        if escaper.hasReferences { takeReferences() }
        if capturesText {
            text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(count)))
        } else if streamsText {
            delegate.characters(UnsafeBufferPointer(start: bytes, count: Int(count)).span, parser: self)
        }
    }

    /// When libxml2 has just read one of the escaper's references, takes back the columns it adds.
    private func takeReferences() {
        guard let input = context.pointee.input else { return }
        let here = Int(xmlByteConsumed(context))
        while let next = escaper.nextReference, next.end <= here {
            if next.end == here {
                input.pointee.col -= Int32(next.extra)
                // Only references in the bytes libxml2 still holds matter to `positionOfLast`.
                if readReferences.count >= pruneReadReferencesAt {
                    let consumed = Int(input.pointee.consumed)
                    readReferences.removeAll { $0.end <= consumed }
                    pruneReadReferencesAt = max(64, readReferences.count * 2)
                }
                readReferences.append(next)
            }
            escaper.dropReference()
        }
    }

    fileprivate func handleEntityDeclaration(_ name: UnsafePointer<xmlChar>?, parameter: Bool) {
        let entity = (parameter ? "%" : "") + (name.map { String(cString: $0) } ?? "")
        let (line, column) = positionOfLast(Array("<!ENTITY".utf8))
        fail(XMLStreamError("entity declarations are not allowed (entity \"\(entity)\")", line: line, column: column))
    }

    /// A document type declaration: refused when it names an external subset (a `SYSTEM` or `PUBLIC` identifier),
    /// which the parser would never load anyway; one with an internal subset only goes on (its entity declarations
    /// are refused one by one).
    fileprivate func handleDocumentType(_ name: UnsafePointer<xmlChar>?, publicID: UnsafePointer<xmlChar>?,
                                        systemID: UnsafePointer<xmlChar>?) {
        guard publicID != nil || systemID != nil else { return }
        var declared = "DOCTYPE " + (name.map { String(cString: $0) } ?? "")
        if let publicID { declared += " PUBLIC \"" + String(cString: publicID) + "\"" }
        if let systemID { declared += (publicID == nil ? " SYSTEM" : "") + " \"" + String(cString: systemID) + "\"" }
        let (line, column) = positionOfLast(Array("<!DOCTYPE".utf8))
        fail(XMLStreamError("external DTD subsets are not allowed (\(declared))", line: line, column: column))
    }

    fileprivate func handleError(_ error: UnsafePointer<xmlError>) {
        // Warnings (e.g. a relative namespace URI) do not stop a well-formed document.
        guard error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue, failure == nil else { return }
        // libxml2 halts itself after fatal errors; only remember the first one (and stop on recoverable ones).
        let streamError = Self.streamError(error)
        if error.pointee.level == XML_ERR_FATAL {
            failure = explainTruncation(streamError, code: error.pointee.code)
        } else {
            fail(streamError)
        }
    }
}

// MARK: - SAX callbacks (capture nothing: the parser arrives as the context's user data)

private func owner(_ context: UnsafeMutableRawPointer?) -> Unmanaged<XMLPushParser> {
    Unmanaged<XMLPushParser>.fromOpaque(context!)
}

private func xmlStreamStartElement(
    _ context: UnsafeMutableRawPointer?, _ localName: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
    _ uri: UnsafePointer<xmlChar>?, _ namespaceCount: Int32,
    _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
    _ attributeCount: Int32, _ defaultedCount: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
) {
    owner(context)._withUnsafeGuaranteedRef { $0.handleStart(localName, uri, attributeCount, attributes) }
}

private func xmlStreamEndElement(
    _ context: UnsafeMutableRawPointer?, _ localName: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
    _ uri: UnsafePointer<xmlChar>?
) {
    owner(context)._withUnsafeGuaranteedRef { $0.handleEnd(localName) }
}

private func xmlStreamCharacters(
    _ context: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<xmlChar>?, _ count: Int32
) {
    owner(context)._withUnsafeGuaranteedRef { $0.handleCharacters(bytes, count) }
}

private func xmlStreamEntityDeclaration(
    _ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?, _ type: Int32,
    _ publicID: UnsafePointer<xmlChar>?, _ systemID: UnsafePointer<xmlChar>?, _ content: UnsafeMutablePointer<xmlChar>?
) {
    let parameter = type == Int32(XML_INTERNAL_PARAMETER_ENTITY.rawValue)
        || type == Int32(XML_EXTERNAL_PARAMETER_ENTITY.rawValue)
    owner(context)._withUnsafeGuaranteedRef { $0.handleEntityDeclaration(name, parameter: parameter) }
}

private func xmlStreamDocumentType(
    _ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?, _ publicID: UnsafePointer<xmlChar>?,
    _ systemID: UnsafePointer<xmlChar>?
) {
    owner(context)._withUnsafeGuaranteedRef { $0.handleDocumentType(name, publicID: publicID, systemID: systemID) }
}

private func xmlStreamUnparsedEntityDeclaration(
    _ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?, _ publicID: UnsafePointer<xmlChar>?,
    _ systemID: UnsafePointer<xmlChar>?, _ notation: UnsafePointer<xmlChar>?
) {
    owner(context)._withUnsafeGuaranteedRef { $0.handleEntityDeclaration(name, parameter: false) }
}

/// Never resolves anything: no external entity or DTD is ever opened.
private func xmlStreamResolveEntity(
    _ context: UnsafeMutableRawPointer?, _ publicID: UnsafePointer<xmlChar>?, _ systemID: UnsafePointer<xmlChar>?
) -> xmlParserInputPtr? {
    nil
}

private func xmlStreamStructuredError(_ context: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {
    guard let context, let error else { return }
    owner(context)._withUnsafeGuaranteedRef { $0.handleError(error) }
}
