/// Receives the events of a JSON text from a `JSONPushParser`, in document order.
///
/// Keys and strings arrive decoded (escapes and `\u` surrogate pairs resolved) as valid UTF-8; numbers arrive
/// as their exact source text (`100000.00`, `3.000`, `12.0`, `1e400` stay as written). Both are borrowed
/// `Span<UInt8>` views valid only during the call: read them (`utf8String`, `elementsEqual(_:)`) or copy them
/// (`byteArray`, `[UInt8].append(span:)`). A thrown error stops the parser and is rethrown unchanged by `feed` or
/// `finish`.
package protocol JSONStreamDelegate: AnyObject {
    /// `{` was read.
    func startObject(parser: JSONPushParser) throws
    /// A member's key was read (its value's events follow).
    func key(_ key: Span<UInt8>, parser: JSONPushParser) throws
    /// `}` was read.
    func endObject(parser: JSONPushParser) throws
    /// `[` was read.
    func startArray(parser: JSONPushParser) throws
    /// `]` was read.
    func endArray(parser: JSONPushParser) throws
    /// A string value was read.
    func string(_ value: Span<UInt8>, parser: JSONPushParser) throws
    /// A number was read: its source text, exactly.
    func number(_ text: Span<UInt8>, parser: JSONPushParser) throws
    /// `true` or `false` was read.
    func boolean(_ value: Bool, parser: JSONPushParser) throws
    /// `null` was read.
    func null(parser: JSONPushParser) throws
}
