/// What a `JSONPushParser` accepts beyond one plain JSON document, and the limits that keep memory bounded.
///
/// UTF-8 is always validated strictly (RFC 3629: no overlong forms, no encoded surrogates, nothing above
/// U+10FFFF, and `\u` escapes must pair their surrogates); no option weakens that.
package struct JSONStreamOptions: Sendable, Equatable {
    /// Accept any number of top-level values (zero included) separated by whitespace: JSON Lines and
    /// concatenated documents. Off: exactly one value, anything after it is an error.
    package var allowsMultipleValues = false
    /// Deepest nesting of objects and arrays accepted (a top-level object is depth 1); deeper is an error.
    package var maxDepth = 64
    /// Longest string, key or number accepted, in source bytes (quotes, escapes and the whitespace and
    /// separator before it count): a token being read is buffered, so this bounds the parser's memory.
    package var maxValueBytes = 16 << 20

    package init(allowsMultipleValues: Bool = false, maxDepth: Int = 64, maxValueBytes: Int = 16 << 20) {
        self.allowsMultipleValues = allowsMultipleValues
        self.maxDepth = maxDepth
        self.maxValueBytes = maxValueBytes
    }
}
