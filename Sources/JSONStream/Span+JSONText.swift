extension Span where Element == UInt8 {
    /// The bytes as a `String` (a `JSONPushParser` only hands out valid UTF-8).
    package var utf8String: String {
        withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes as a new array (`bytes` is the standard library's `RawSpan` view).
    package var byteArray: [UInt8] {
        withUnsafeBufferPointer { Array($0) }
    }

    /// Whether the bytes equal `text`'s UTF-8 bytes (no `String` is made).
    package func elementsEqual(_ text: StaticString) -> Bool {
        withUnsafeBufferPointer { mine in text.withUTF8Buffer { mine.elementsEqual($0) } }
    }

    /// Whether the bytes equal `other`.
    package func elementsEqual(_ other: [UInt8]) -> Bool {
        withUnsafeBufferPointer { mine in other.withUnsafeBufferPointer { mine.elementsEqual($0) } }
    }
}

extension Array where Element == UInt8 {
    /// Appends a borrowed span's bytes (one copy, no intermediate array).
    package mutating func append(span: Span<UInt8>) {
        span.withUnsafeBufferPointer { append(contentsOf: $0) }
    }
}
