import Foundation

/// Reads an input in fixed-size chunks so a feed never sits whole in memory.
final class ChunkReader {
    private let handle: FileHandle
    private let chunkSize: Int
    private let location: String
    private(set) var bytesRead: Int64 = 0

    init(_ input: InputFile, chunkSize: Int = 1 << 20) throws {
        self.location = input.location
        self.chunkSize = chunkSize
        if input.location == "-" {
            handle = FileHandle.standardInput
        } else {
            guard let h = FileHandle(forReadingAtPath: input.location) else {
                throw FetchError("\(input.location): cannot open for reading")
            }
            handle = h
        }
    }

    /// The next chunk, or nil at end of input.
    func next() throws -> [UInt8]? {
        let data: Data?
        do {
            data = try handle.read(upToCount: chunkSize)
        } catch {
            throw FetchError("\(location): read failed: \(error.localizedDescription)")
        }
        guard let data, !data.isEmpty else { return nil }
        bytesRead += Int64(data.count)
        return [UInt8](data)
    }

    deinit {
        if location != "-" { try? handle.close() }
    }
}
