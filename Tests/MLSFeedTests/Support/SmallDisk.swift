import Foundation

/// A tmpfs of a given size mounted on a fresh temporary directory (root only: `mount`), so a test fills a disk for
/// real; unmounted and removed when it goes.
final class SmallDisk {
    /// The mount point.
    let path: String

    /// Mounts `kilobytes` KiB of tmpfs, owned by `owner` (a uid; default: this process's user), mode 0700.
    init(kilobytes: Int, owner: uid_t = geteuid()) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("small-disk-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0700,uid=\(owner)", "tmpfs", path])
    }

    deinit {
        // Lazily: a server that still holds a file there lets go of it when it closes.
        try? Self.run("/bin/umount", ["-l", path])
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Runs a command, throwing with its output unless it exits 0.
    private static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SmallDiskError(description: "\(tool) \(arguments.joined(separator: " ")): \(text)")
        }
    }
}

/// A mount or unmount that failed.
struct SmallDiskError: Error, CustomStringConvertible {
    var description: String
}
