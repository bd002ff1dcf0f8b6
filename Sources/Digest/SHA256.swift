internal import CCrypto

/// Streaming SHA-256 over OpenSSL's libcrypto (EVP): feed bytes as they are read, take the hex digest at the end.
///
/// This is the only file that imports `CCrypto`. The digest context has one owner (`Context`), freed in `deinit`.
package struct SHA256: @unchecked Sendable {
    /// Owns the `EVP_MD_CTX`. A hasher is used by one thread at a time (the fetch stage's).
    private final class Context {
        let handle: OpaquePointer

        init() {
            guard let handle = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
            self.handle = handle
            Context.check(EVP_DigestInit_ex(handle, EVP_sha256(), nil), "EVP_DigestInit_ex")
        }

        deinit { EVP_MD_CTX_free(handle) }

        /// libcrypto returns 1 for success; anything else is a broken library, not bad input.
        static func check(_ result: Int32, _ call: StaticString) {
            precondition(result == 1, "\(call) failed")
        }
    }

    private let context = Context()
    private var finished = false

    package init() {}

    /// Adds bytes to the message.
    package mutating func update<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        precondition(!finished, "SHA256 used after finalizeHex()")
        if bytes.withContiguousStorageIfAvailable({ digest($0) }) != nil { return }
        [UInt8](bytes).withUnsafeBufferPointer { digest($0) }
    }

    private func digest(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        Context.check(EVP_DigestUpdate(context.handle, base, buffer.count), "EVP_DigestUpdate")
    }

    /// The digest of everything added, as 64 lowercase hex digits. The hasher is consumed.
    package mutating func finalizeHex() -> String {
        precondition(!finished, "SHA256 finalized twice")
        finished = true
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        Context.check(EVP_DigestFinal_ex(context.handle, &digest, &length), "EVP_DigestFinal_ex")
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in digest.prefix(Int(length)) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0xf)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// The hex digest of `bytes`.
    package static func hex<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalizeHex()
    }
}
