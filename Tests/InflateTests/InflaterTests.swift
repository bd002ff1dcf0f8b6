import Testing
@testable import Inflate

@Suite struct InflaterTests {
    /// `gzip` of "hello, gzip\n" (Python's gzip.compress with mtime 0).
    static let member: [UInt8] = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0xd7, 0x51, 0x48,
        0xaf, 0xca, 0x2c, 0xe0, 0x02, 0x00, 0x86, 0x1f, 0x82, 0xa4, 0x0c, 0x00, 0x00, 0x00,
    ]

    /// Inflates `input` whole through `inflater`, one member.
    static func inflate(_ input: [UInt8], _ inflater: Inflater) throws -> (text: String, consumed: Int, ended: Bool) {
        var output = [UInt8](repeating: 0, count: 64)
        var filled = 0
        let (consumed, ended) = try inflater.inflate(input[...], into: &output, filled: &filled)
        return (String(decoding: output[..<filled], as: UTF8.self), consumed, ended)
    }

    @Test func inflatesAGzipMember() throws {
        let result = try Self.inflate(Self.member, try Inflater())
        #expect(result.text == "hello, gzip\n")
        #expect(result.consumed == Self.member.count)
        #expect(result.ended)
    }

    @Test func resetReadsTheNextMember() throws {
        let inflater = try Inflater()
        let twice = Self.member + Self.member
        let first = try Self.inflate(twice, inflater)
        #expect(first.text == "hello, gzip\n" && first.ended)
        try inflater.reset()
        let second = try Self.inflate(Array(twice[first.consumed...]), inflater)
        #expect(second.text == "hello, gzip\n" && second.ended)
    }

    @Test func corruptDataNamesZlibsReason() throws {
        var broken = Self.member
        broken[0] = 0x00
        #expect(throws: InflateError(message: "corrupt data (incorrect header check)")) {
            _ = try Self.inflate(broken, try Inflater())
        }
    }

    /// A failed `inflateInit2_` frees the stream exactly once: before the fix, the initializer freed it and then
    /// `deinit` freed it again (glibc aborts on the double free, or the heap is corrupted for later tests).
    @Test func failedInitializationFreesOnce() throws {
        for _ in 0..<10_000 {
            #expect(throws: InflateError(message: "invalid stream parameters")) {
                _ = try Inflater(windowBits: 99)
            }
        }
        // The heap is still sound: a good stream works after all those failures.
        #expect(try Self.inflate(Self.member, try Inflater()).text == "hello, gzip\n")
    }
}
