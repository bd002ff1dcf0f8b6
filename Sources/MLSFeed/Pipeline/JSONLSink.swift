import Foundation

/// The dry run's sink: nothing reaches the database; records and rejects can be written as JSON lines. Its commit
/// reaches the database run's verdict on the dump's completeness (`IncompletePolicy.verdict`): a dry run of an
/// incomplete full dump is refused as the run would be (the withdraw guard, which needs the stored listings, is
/// for `mlsfeed plan`).
///
/// Lines come in feed order, keys in a fixed order, so two runs of the same feed give byte-identical files:
/// `{"type":"listing",...}` (then its `{"type":"media",...}` and `{"type":"open_house",...}` rows),
/// `{"type":"agent",...}`, `{"type":"office",...}`, `{"type":"reject",...}`.
///
/// A run that fails (a full disk included) removes a partial output file, so no truncated file passes for the
/// run's output; standard output, `/dev/null`, a FIFO or a device is left as it is.
final class JSONLSink: RecordSink, @unchecked Sendable {
    private var handle: FileHandle?
    /// The output's path, for errors; nil for standard output or no output.
    private var path: String?
    /// Whether the output is a regular file, which a failed run removes.
    private var isRegularFile = false
    private var buffer: [UInt8] = []
    private var records = 0
    /// The run's mode and completeness policy, for the verdict at `commit`.
    private let options: LoadOptions?

    /// `path` nil: count only. `-`: standard output. `options`: the load the dry run stands for.
    init(path: String?, options: LoadOptions? = nil) throws {
        self.options = options
        guard let path else { return }
        if path == "-" {
            handle = .standardOutput
        } else {
            // Opened in place, never replaced: `/dev/null`, a FIFO or a symlink stays what it is (an atomic
            // create would rename a new regular file over it).
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                let code = errno
                let reason = String(cString: strerror(code))
                if DiskFull.isFull(code) {
                    throw DiskFull(path: path, doing: "cannot create the output", reason: reason)
                }
                throw FetchError("\(path): cannot create the output file: \(reason)")
            }
            var status = stat()
            isRegularFile = fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
            handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            self.path = path
        }
        buffer.reserveCapacity(1 << 20)
    }

    func write(_ batch: [NormalizedRecord], rejects: [Reject]) throws {
        records += batch.count
        guard handle != nil else { return }
        // Merge by feed ordinal so the file reads in feed order (a listing's agent follows it).
        var r = 0
        for record in batch {
            while r < rejects.count && rejects[r].ordinal < record.ordinal {
                append(JSONLSink.line(rejects[r]))
                r += 1
            }
            append(JSONLSink.line(record))
            for child in record.children { append(JSONLSink.line(child)) }
        }
        for reject in rejects[r...] { append(JSONLSink.line(reject)) }
        try flushIfFull()
    }

    /// Flushes the output; a dry run loads nothing, so every load count is 0 (run id 0: no ledger row). Throws
    /// the refusal the database run would throw for an incomplete dump.
    func commit(_ totals: RunTotals) throws -> LoadResult {
        try flush()
        if handle != FileHandle.standardOutput { try handle?.close() }
        var result = LoadResult(runID: 0)
        if let options {
            let verdict = try options.onIncomplete.verdict(mode: options.mode, sweep: options.sweep,
                                                           completeness: totals.completeness)
            if let note = verdict.note { result.notes.append(note) }
        }
        return result
    }

    func fail(_ message: String, interrupted: Bool, totals: RunTotals) {
        if isRegularFile {
            removePartialFile()
        } else {
            try? flush()
        }
    }

    private func append(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
    }

    private func flushIfFull() throws {
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Writes the buffer out. A full disk throws `DiskFull` naming the output, once the partial file is removed;
    /// another write error a `FetchError` naming it.
    private func flush() throws {
        guard let handle, !buffer.isEmpty else { return }
        let descriptor = handle.fileDescriptor
        var failure: Int32 = 0
        buffer.withUnsafeBytes { bytes in
            var at = 0
            while at < bytes.count {
                let wrote = Glibc.write(descriptor, bytes.baseAddress! + at, bytes.count - at)
                if wrote < 0 && errno == EINTR { continue }
                guard wrote > 0 else {
                    failure = wrote < 0 ? errno : EIO
                    return
                }
                at += wrote
            }
        }
        buffer.removeAll(keepingCapacity: true)
        guard failure != 0 else { return }
        let name = path ?? "standard output"
        var reason = String(cString: strerror(failure))
        if isRegularFile {
            removePartialFile()
            reason += "; the partial file was removed"
        }
        if DiskFull.isFull(failure) { throw DiskFull(path: name, doing: "cannot write the output", reason: reason) }
        throw FetchError("\(name): cannot write the output: \(reason)")
    }

    /// Closes and deletes the output file a failed run leaves partial (a regular file only).
    private func removePartialFile() {
        buffer.removeAll()
        try? handle?.close()
        handle = nil
        if let path, isRegularFile { unlink(path) }
        isRegularFile = false
    }

    static func line(_ record: NormalizedRecord) -> String {
        var members = ["\"type\":\"\(record.entity.rawValue)\"",
                       "\"at\":" + JSONText.string(record.position.description)]
        for (column, value) in zip(record.entity.columns, record.columns) {
            guard let value else { continue }
            members.append(JSONText.string(column.name) + ":" + json(value))
        }
        if let extraJSON = record.extraJSON, extraJSON != Array("{}".utf8) {
            members.append("\"extra\":" + String(decoding: extraJSON, as: UTF8.self))
        } else if !record.extra.isEmpty {
            members.append("\"extra\":" + JSONText.object(record.extra))
        }
        members.append("\"content_hash\":\"\(record.contentHash)\"")
        return "{" + members.joined(separator: ",") + "}"
    }

    static func line(_ reject: Reject) -> String {
        var members = ["\"type\":\"reject\"", "\"entity\":\"\(reject.entity.rawValue)\"",
                       "\"at\":" + JSONText.string(reject.position.description)]
        if let key = reject.key { members.append("\"key\":" + JSONText.string(key)) }
        members.append("\"reasons\":[" + reject.reasons.map { JSONText.string($0.description) }.joined(separator: ",")
                       + "]")
        members.append("\"raw\":" + (reject.rawJSON.map { String(decoding: $0, as: UTF8.self) }
            ?? JSONText.pairs(reject.raw)))
        return "{" + members.joined(separator: ",") + "}"
    }

    private static func json(_ value: Value) -> String {
        switch value {
        case .integer(let i): return String(i)
        case .decimal(let d): return d
        case .double(let d): return String(d)
        case .boolean(let b): return b ? "true" : "false"
        case .text(let s), .date(let s), .timestamp(let s): return JSONText.string(s)
        }
    }
}
