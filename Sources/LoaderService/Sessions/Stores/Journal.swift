import Dispatch
import Glibc
import Synchronization

/// An append-only file of records, each `[length u32][crc32 u32][payload]`
/// (little-endian), made durable with `fdatasync` before its writer hears
/// back. Writers that arrive while a sync is running are written and synced
/// together in the next one (group commit).
///
/// Compaction while running: once the file reaches `compactAt` bytes,
/// `needsCompaction` is called and the owner answers with `compact`, which
/// replaces the file with a snapshot of the live state. The owner makes every
/// `append` under one lock of its own and takes its snapshot under that lock,
/// so the file's order is the state's order and no record is in between.
final class Journal: @unchecked Sendable {
    let path: String
    /// Touched on the queue only (after `init`).
    private var fd: Int32
    private let queue = DispatchQueue(label: "loaderd.journal")
    private struct Waiting {
        var bytes: [UInt8] = []
        var tickets: [WriteTicket] = []
        var flushScheduled = false
    }
    private let waiting = Mutex(Waiting())
    /// Bytes in the file (written on the queue, read anywhere).
    var size: Int {
        get { sizeValue.load(ordering: .relaxed) }
        set { sizeValue.store(newValue, ordering: .relaxed) }
    }
    private let sizeValue = Atomic<Int>(0)
    /// Group commits (one `fdatasync` each) and the time spent in them, for `/metrics`.
    let syncs = Atomic<Int>(0)
    let syncNanoseconds = Atomic<Int>(0)

    /// The smallest size that asks for compaction; after one, twice the
    /// compacted size if that is more (so a large live state is not
    /// rewritten over and over).
    private var compactionThreshold = Int.max
    private var compactAt = Int.max
    private var compactionRequested = false
    /// Called on the journal's queue when the file has grown past `compactAt`.
    var needsCompaction: (@Sendable () -> Void)?
    /// Compactions done while running, for tests and logs.
    let compactions = Atomic<Int>(0)

    /// What replay found.
    struct Replay {
        var payloads: [[UInt8]] = []
        /// Bytes cut off the end (a torn or corrupt tail), if any.
        var discardedBytes = 0
        var discardReason: String?
    }

    /// Opens (creating) the journal at `path`, reads every intact record, and
    /// cuts off a torn or corrupt tail so that new records follow good ones.
    init(path: String) throws(JournalError) {
        self.path = path
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw JournalError("cannot open \(path): \(String(cString: strerror(errno)))") }
        // A new file's name must survive a power cut too, not only its data.
        Journal.syncDirectory(of: path)
    }

    deinit { close(fd) }

    func replay() throws(JournalError) -> Replay {
        var contents = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        lseek(fd, 0, SEEK_SET)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw JournalError("cannot read \(path)") }
            if n == 0 { break }
            contents.append(contentsOf: chunk[0..<n])
        }
        var result = Replay()
        var offset = 0
        while offset < contents.count {
            guard contents.count - offset >= 8 else {
                result.discardReason = "torn record header"
                break
            }
            let length = Int(readUInt32(contents, offset))
            let crc = readUInt32(contents, offset + 4)
            guard length <= 16 << 20, contents.count - offset - 8 >= length else {
                result.discardReason = "torn record"
                break
            }
            let payload = Array(contents[(offset + 8)..<(offset + 8 + length)])
            guard CRC32.checksum(payload) == crc else {
                result.discardReason = "checksum mismatch"
                break
            }
            result.payloads.append(payload)
            offset += 8 + length
        }
        if offset < contents.count {
            result.discardedBytes = contents.count - offset
            guard ftruncate(fd, off_t(offset)) == 0, fdatasync(fd) == 0 else {
                throw JournalError("cannot cut the damaged tail of \(path)")
            }
        }
        size = offset
        lseek(fd, off_t(offset), SEEK_SET)
        return result
    }

    /// Queues `payload`; its ticket completes (on the journal's queue) with
    /// true once the record is on disk, false if writing failed. Records are
    /// written in the order of their appends.
    func append(_ payload: [UInt8]) -> WriteTicket {
        let record = Journal.frame(payload)
        let ticket = WriteTicket()
        let schedule = waiting.withLock { w -> Bool in
            w.bytes.append(contentsOf: record)
            w.tickets.append(ticket)
            if w.flushScheduled { return false }
            w.flushScheduled = true
            return true
        }
        if schedule { queue.async { self.flush() } }
        return ticket
    }

    private func takeWaiting() -> Waiting {
        waiting.withLock { w -> Waiting in
            let taken = w
            w = Waiting()
            return taken
        }
    }

    /// Writes everything waiting in one write and one sync, then reports.
    private func flush() {
        write(takeWaiting())
        if size >= compactAt && !compactionRequested, let needsCompaction {
            compactionRequested = true
            needsCompaction()
        }
    }

    private func write(_ batch: Waiting) {
        var ok = true
        var offset = 0
        while offset < batch.bytes.count {
            let n = batch.bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, batch.bytes.count - offset) }
            if n < 0 { if errno == EINTR { continue }; ok = false; break }
            offset += n
        }
        if ok && !batch.bytes.isEmpty {
            let started = DispatchTime.now().uptimeNanoseconds
            if fdatasync(fd) != 0 { ok = false }
            syncs.add(1, ordering: .relaxed)
            syncNanoseconds.add(Int(DispatchTime.now().uptimeNanoseconds - started), ordering: .relaxed)
        }
        if ok {
            size += batch.bytes.count
        } else {
            // Cut what part of the batch got in, so that later records do not
            // follow a torn one (replay stops at the first damaged record).
            _ = ftruncate(fd, off_t(size))
            lseek(fd, off_t(size), SEEK_SET)
        }
        for ticket in batch.tickets { ticket.complete(ok) }
    }

    /// Asks for compaction from `threshold` bytes on (or twice the present
    /// size, if more); `needsCompaction` must be set first.
    func armCompaction(threshold: Int) {
        queue.sync {
            compactionThreshold = threshold
            compactAt = max(threshold, 2 * size)
        }
    }

    /// Compaction while running, on the journal's queue. `snapshot` must hold
    /// the lock under which every `append` is made while it builds the
    /// records and calls `takeWaiting`: the records accepted but not yet
    /// written are then part of the snapshot, and their tickets complete once
    /// the new file is durable. If the new file cannot be made, they are
    /// written to the old one as usual, and the next attempt waits until the
    /// file has doubled. `done` hears the outcome (on the journal's queue).
    func compact(_ snapshot: @escaping @Sendable (_ takeWaiting: () -> Void) -> [[UInt8]],
                 done: @escaping @Sendable (_ records: Int, _ failure: JournalError?) -> Void) {
        queue.async { [self] in
            var covered = Waiting()
            let payloads = snapshot { covered = takeWaiting() }
            do throws(JournalError) {
                try rewriteNow(payloads)
                compactions.add(1, ordering: .relaxed)
                for ticket in covered.tickets { ticket.complete(true) }
                done(payloads.count, nil)
            } catch {
                write(covered)
                compactAt = max(compactionThreshold, 2 * size)
                done(payloads.count, error)
            }
            compactionRequested = false
        }
    }

    /// Replaces the journal with `payloads` (compaction): written to a new
    /// file, synced, renamed over the old one, and the directory synced.
    func rewrite(_ payloads: [[UInt8]]) throws(JournalError) {
        let failure: JournalError? = queue.sync { () -> JournalError? in
            do throws(JournalError) { try rewriteNow(payloads) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Writes `payloads` to a new file, syncs it, renames it over the
    /// journal and syncs the directory; the new file's descriptor becomes the
    /// journal's. On a failure the old file and descriptor are untouched.
    private func rewriteNow(_ payloads: [[UInt8]]) throws(JournalError) {
        let temporary = path + ".compact"
        let out = open(temporary, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard out >= 0 else { throw JournalError("cannot create \(temporary)") }
        var bytes = [UInt8]()
        for p in payloads { bytes.append(contentsOf: Journal.frame(p)) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(out, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 { if errno == EINTR { continue }; close(out); throw JournalError("cannot write \(temporary)") }
            offset += n
        }
        guard fsync(out) == 0 else { close(out); throw JournalError("cannot sync \(temporary)") }
        guard rename(temporary, path) == 0 else { close(out); throw JournalError("cannot replace \(path)") }
        Journal.syncDirectory(of: path)
        close(fd)
        fd = out
        size = bytes.count
        compactAt = max(compactionThreshold, 2 * size)
    }

    static func frame(_ payload: [UInt8]) -> [UInt8] {
        var record = [UInt8]()
        record.reserveCapacity(payload.count + 8)
        appendUInt32(UInt32(payload.count), to: &record)
        appendUInt32(CRC32.checksum(payload), to: &record)
        record.append(contentsOf: payload)
        return record
    }

    static func syncDirectory(of path: String) {
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let dfd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 { fsync(dfd); close(dfd) }
    }
}

/// The outcome of one append: true once its record is on disk, false if it
/// could not be written. `whenDone` runs at once if the outcome is known.
public struct JournalError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

private func readUInt32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
}

private func appendUInt32(_ v: UInt32, to out: inout [UInt8]) {
    out.append(UInt8(truncatingIfNeeded: v))
    out.append(UInt8(truncatingIfNeeded: v >> 8))
    out.append(UInt8(truncatingIfNeeded: v >> 16))
    out.append(UInt8(truncatingIfNeeded: v >> 24))
}

/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320).
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { i -> UInt32 in
        var c = UInt32(i)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes { crc = table[Int((crc ^ UInt32(b)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
