/// Streaming SHA-256 (FIPS 180-4) in plain Swift: feed bytes as they are read, take the hex digest at the end.
public struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    /// Bytes of an incomplete block carried to the next `update`.
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    public init() {
        buffer.reserveCapacity(64)
    }

    /// Adds bytes to the message.
    public mutating func update<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if let done: Void = bytes.withContiguousStorageIfAvailable({ update(buffer: UnsafeRawBufferPointer($0)) }) {
            return done
        }
        let copy = [UInt8](bytes)
        copy.withUnsafeBytes { update(buffer: $0) }
    }

    /// The digest of everything added, as 64 lowercase hex digits. The hasher is consumed.
    public mutating func finalizeHex() -> String {
        let bitLength = length &* 8
        var tail: [UInt8] = [0x80]
        let used = (buffer.count + 1) % 64
        tail += [UInt8](repeating: 0, count: used <= 56 ? 56 - used : 120 - used)
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> shift)) }
        let savedLength = length
        update(tail)
        length = savedLength
        let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for word in words {
            for shift in stride(from: 28, through: 0, by: -4) { hex.append(digits[Int((word >> UInt32(shift)) & 0xf)]) }
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// The hex digest of `bytes`.
    public static func hex<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalizeHex()
    }

    private mutating func update(buffer input: UnsafeRawBufferPointer) {
        guard !input.isEmpty else { return }
        length &+= UInt64(input.count)
        var offset = 0
        if !buffer.isEmpty {
            let take = min(64 - buffer.count, input.count)
            buffer += input[0..<take]
            offset = take
            guard buffer.count == 64 else { return }
            buffer.withUnsafeBytes { compress(blocks: $0.baseAddress!, count: 1) }
            buffer.removeAll(keepingCapacity: true)
        }
        let blocks = (input.count - offset) / 64
        if blocks > 0 {
            compress(blocks: input.baseAddress! + offset, count: blocks)
            offset += blocks * 64
        }
        if offset < input.count { buffer += input[offset...] }
    }

    private mutating func compress(blocks: UnsafeRawPointer, count: Int) {
        var (h0, h1, h2, h3, h4, h5, h6, h7) = state
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { buffer in
            SHA256.roundConstants.withUnsafeBufferPointer { constants in
                let w = buffer.baseAddress!
                let k = constants.baseAddress!
                for block in 0..<count {
                    let base = blocks + block &* 64
                    for i in 0..<16 {
                        w[i] = UInt32(bigEndian: base.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
                    }
                    for i in 16..<64 {
                        let x = w[i &- 15], y = w[i &- 2]
                        let s0 = x.rotr(7) ^ x.rotr(18) ^ (x &>> 3)
                        let s1 = y.rotr(17) ^ y.rotr(19) ^ (y &>> 10)
                        w[i] = w[i &- 16] &+ s0 &+ w[i &- 7] &+ s1
                    }
                    var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
                    var i = 0
                    while i < 64 {
                        round(a, b, c, &d, e, f, g, &h, k[i] &+ w[i])
                        round(h, a, b, &c, d, e, f, &g, k[i &+ 1] &+ w[i &+ 1])
                        round(g, h, a, &b, c, d, e, &f, k[i &+ 2] &+ w[i &+ 2])
                        round(f, g, h, &a, b, c, d, &e, k[i &+ 3] &+ w[i &+ 3])
                        round(e, f, g, &h, a, b, c, &d, k[i &+ 4] &+ w[i &+ 4])
                        round(d, e, f, &g, h, a, b, &c, k[i &+ 5] &+ w[i &+ 5])
                        round(c, d, e, &f, g, h, a, &b, k[i &+ 6] &+ w[i &+ 6])
                        round(b, c, d, &e, f, g, h, &a, k[i &+ 7] &+ w[i &+ 7])
                        i &+= 8
                    }
                    h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d
                    h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
                }
            }
        }
        state = (h0, h1, h2, h3, h4, h5, h6, h7)
    }

    /// One round with the roles of the eight working variables passed in rotated order (no shuffling of values).
    @inline(__always)
    private func round(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32,
                       _ g: UInt32, _ h: inout UInt32, _ kw: UInt32) {
        let t1 = h &+ (e.rotr(6) ^ e.rotr(11) ^ e.rotr(25)) &+ (g ^ (e & (f ^ g))) &+ kw
        let t2 = (a.rotr(2) ^ a.rotr(13) ^ a.rotr(22)) &+ ((a & b) | (c & (a | b)))
        d &+= t1
        h = t1 &+ t2
    }

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}

private extension UInt32 {
    @inline(__always) func rotr(_ n: UInt32) -> UInt32 { (self &>> n) | (self &<< (32 &- n)) }
}
