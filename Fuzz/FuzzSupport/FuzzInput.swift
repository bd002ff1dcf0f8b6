/// A fuzz input read from the front: option bytes first, then the payload.
package struct FuzzInput {
    private let bytes: [UInt8]
    private var index = 0

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The next byte, or 0 once the input is used up.
    package mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// The bytes not read yet.
    package var rest: ArraySlice<UInt8> { bytes[min(index, bytes.count)...] }
}
