import Foundation
import Testing
@testable import MLSFeed

/// The metadata fixtures (`Fixtures/metadata`) and a scratch directory for what the tests write.
enum MetadataFixture {
    static func url(_ name: String) throws -> URL {
        try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/metadata"))
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        try Array(Data(contentsOf: url(name)))
    }

    static func text(_ name: String) throws -> String {
        try String(decoding: Data(contentsOf: url(name)), as: UTF8.self)
    }

    /// Reads fixture `name` (named by its file name alone, as a user in its directory would), in pieces of
    /// `chunk` bytes.
    static func read(_ name: String, chunk: Int? = nil) throws -> MetadataDocument {
        try MetadataReader.read(bytes: bytes(name), file: name, chunk: chunk)
    }

    /// The error text reading `text` throws (nil when it reads).
    static func error(reading text: String, file: String = "m.xml") -> String? {
        do {
            _ = try MetadataReader.read(bytes: Array(text.utf8), file: file)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// A new empty directory, removed by the caller.
    static func scratch(_ prefix: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
