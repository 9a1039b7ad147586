import Dispatch
import Glibc
import Synchronization

/// An append-only file of records, made durable with `fdatasync` before its
/// writer hears back. Writers that arrive while a sync is running are written
/// and synced together in the next one (group commit).
///
/// A record (version 2) is a 12-byte header and its payload:
/// `[length u24][0x1E][payload crc32 u32][header crc32 u32]`, little-endian,
/// the header's checksum covering its first 8 bytes. The header checksum
/// tells a damaged payload (skip the record, its framing holds) from damaged
/// framing (find the next header that checks); the 0x1E byte, which no JSON
/// text holds raw, makes that search cheap. Journals written before it
/// (version 1: `[length u32][crc32 u32][payload]`) still replay, and are
/// rewritten as version 2 at start-up; see `JournalScan` and
/// docs/RELIABILITY.md for what survives which damage.
///
/// Compaction while running: once the file reaches `compactAt` bytes,
/// `needsCompaction` is called and the owner answers with `compact`, which
/// replaces the file with a snapshot of the live state. The owner makes every
/// `append` under one lock of its own and takes its snapshot under that lock,
/// so the file's order is the state's order and no record is in between.
// unchecked: `fd` and the compaction fields are touched only on `queue`, `needsCompaction` and `replayed` set before it is shared.
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
    /// The size of a compaction's partial file found (and removed) on opening.
    let leftoverRemoved: Int?
    /// What the last replay read past, for `/metrics` (set before the store is shared).
    private(set) var replayed = JournalScan.Figures()

    /// The largest payload a record holds (a 24-bit length).
    static let maxPayload = (1 << 24) - 1

    /// What replay found.
    struct Replay {
        var payloads: [[UInt8]] = []
        var figures = JournalScan.Figures()
        /// The first few damaged spans, for the log.
        var damage: [JournalScan.Damage] = []
        /// Where the bytes from the first damage on were kept (never deleted), and how many.
        var keptAside: (path: String, bytes: Int, from: Int)?
        /// The file holds damage or version 1 records: the owner rewrites it
        /// from the payloads (appending after damage is never done).
        var mustRewrite = false
    }

    /// Opens (creating) the journal at `path`, and removes what a failed
    /// compaction may have left (`path.compact`).
    init(path: String) throws(JournalError) {
        self.path = path
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw JournalError("cannot open \(path): \(String(cString: strerror(errno)))") }
        // A new file's name must survive a power cut too, not only its data.
        Journal.syncDirectory(of: path)
        var leftover = stat()
        if stat(path + ".compact", &leftover) == 0 {
            leftoverRemoved = Int(leftover.st_size)
            unlink(path + ".compact")
            Journal.syncDirectory(of: path)
        } else {
            leftoverRemoved = nil
        }
    }

    deinit { close(fd) }

    /// Reads every record it can (see `JournalScan`). A torn tail alone is
    /// cut off; any other damage is first copied, from its first byte to the
    /// end of the file, to `path.damaged-<UTC time>` (synced), and the file
    /// must then be rewritten by the owner. Throws if that copy cannot be
    /// made: nothing is dropped that was not kept.
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
        var scan = JournalScan(contents)
        scan.run()
        var result = Replay(payloads: scan.payloads, figures: scan.figures, damage: scan.damage)
        replayed = scan.figures
        if let first = scan.figures.firstDamage {
            let kept = try keepAside(contents[first...])
            result.keptAside = (kept, contents.count - first, first)
            result.mustRewrite = true
        } else if scan.figures.tornBytes > 0 {
            let keep = contents.count - scan.figures.tornBytes
            guard ftruncate(fd, off_t(keep)) == 0, fdatasync(fd) == 0 else {
                throw JournalError("cannot cut the torn tail of \(path)")
            }
        }
        size = contents.count - (result.mustRewrite ? 0 : scan.figures.tornBytes)
        if scan.figures.legacyRecords > 0 { result.mustRewrite = true }
        lseek(fd, off_t(size), SEEK_SET)
        return result
    }

    /// Writes `bytes` to a new file beside the journal, synced with its
    /// name, `path.damaged-<UTC time>-<crc32>`; its path. If a start before
    /// kept the same bytes (and then failed, say to rewrite the journal on a
    /// full disk), that file is the one: a start that fails over and over
    /// must not fill the disk with copies.
    private func keepAside(_ slice: ArraySlice<UInt8>) throws(JournalError) -> String {
        let bytes = Array(slice)
        var hex = String(CRC32.checksum(bytes), radix: 16)
        hex = String(repeating: "0", count: 8 - hex.count) + hex
        if let kept = Journal.alreadyKept(beside: path, suffix: "-" + hex, bytes) { return kept }
        var now = time(nil), parts = tm()
        gmtime_r(&now, &parts)
        var stamp = [CChar](repeating: 0, count: 32)
        let count = strftime(&stamp, stamp.count, "%Y%m%dT%H%M%SZ", &parts)
        let base = path + ".damaged-" + String(decoding: stamp.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self) + "-" + hex
        // Never over another kept file.
        for attempt in 0..<100 {
            let name = attempt == 0 ? base : base + "-\(attempt)"
            let out = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if out < 0 {
                if errno == EEXIST { continue }
                throw JournalError("cannot keep the damaged part of \(path) aside in \(name): \(String(cString: strerror(errno)))")
            }
            defer { close(out) }
            guard Journal.writeAll(out, bytes), fsync(out) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(name)
                throw JournalError("cannot keep the damaged part of \(path) aside in \(name): \(reason)")
            }
            Journal.syncDirectory(of: path)
            return name
        }
        throw JournalError("cannot keep the damaged part of \(path) aside: \(base) and 99 more names taken")
    }

    /// A file kept aside before, beside `path`, whose name ends in `suffix`
    /// (or that and a number) and which holds exactly `bytes`.
    private static func alreadyKept(beside path: String, suffix: String, _ bytes: [UInt8]) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let directory = parts.dropLast().joined(separator: "/")
        let prefix = String(parts.last!) + ".damaged-"
        guard let dir = opendir(directory.isEmpty ? "." : directory) else { return nil }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix(prefix), name.contains(suffix) else { continue }
            let candidate = (directory.isEmpty ? "" : directory + "/") + name
            var info = stat()
            guard stat(candidate, &info) == 0, Int(info.st_size) == bytes.count else { continue }
            let fd = open(candidate, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var held = [UInt8](repeating: 0, count: bytes.count)
            var offset = 0
            while offset < held.count {
                let n = held.withUnsafeMutableBytes { read(fd, $0.baseAddress! + offset, $0.count - offset) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                offset += n
            }
            if offset == held.count && held == bytes { return candidate }
        }
        return nil
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 { if errno == EINTR { continue }; return false }
            offset += n
        }
        return true
    }

    /// Queues `payload`; its ticket completes (on the journal's queue) with
    /// true once the record is on disk, false if writing failed. Records are
    /// written in the order of their appends.
    func append(_ payload: [UInt8]) -> WriteTicket {
        let ticket = WriteTicket()
        guard let record = Journal.frame(payload) else {
            ticket.complete(false)
            return ticket
        }
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
            // follow a torn one (replay would read past it, but as damage,
            // kept aside with everything after it).
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
        var bytes = [UInt8]()
        for p in payloads {
            guard let record = Journal.frame(p) else { throw JournalError("a record of \(p.count) bytes is over the journal's \(Journal.maxPayload)") }
            bytes.append(contentsOf: record)
        }
        let out = open(temporary, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard out >= 0 else { throw JournalError("cannot create \(temporary): \(String(cString: strerror(errno)))") }
        // On a failure the partial file goes at once: a full disk must not
        // stay full of it.
        func fail(_ what: String) -> JournalError {
            let reason = String(cString: strerror(errno))
            close(out)
            unlink(temporary)
            return JournalError("cannot \(what): \(reason)")
        }
        guard Journal.writeAll(out, bytes) else { throw fail("write \(temporary)") }
        guard fsync(out) == 0 else { throw fail("sync \(temporary)") }
        guard rename(temporary, path) == 0 else { throw fail("replace \(path)") }
        Journal.syncDirectory(of: path)
        close(fd)
        fd = out
        size = bytes.count
        compactAt = max(compactionThreshold, 2 * size)
    }

    /// A version 2 record; nil if the payload is over `maxPayload`.
    static func frame(_ payload: [UInt8]) -> [UInt8]? {
        guard payload.count <= maxPayload else { return nil }
        var record = [UInt8]()
        record.reserveCapacity(payload.count + 12)
        appendUInt32(UInt32(payload.count) | UInt32(JournalScan.tag) << 24, to: &record)
        appendUInt32(CRC32.checksum(payload), to: &record)
        appendUInt32(CRC32.checksum(record), to: &record)
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

fileprivate func readUInt32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
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

    static func checksum(_ bytes: [UInt8]) -> UInt32 { checksum(bytes, 0, bytes.count) }

    /// Of `count` bytes from `from`, without copying them.
    static func checksum(_ bytes: [UInt8], _ from: Int, _ count: Int) -> UInt32 {
        precondition(from >= 0 && count >= 0 && from + count <= bytes.count)
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { t in
            bytes.withUnsafeBufferPointer { b in
                for i in from..<(from + count) { crc = t[Int((crc ^ UInt32(b[i])) & 0xFF)] ^ (crc >> 8) }
            }
        }
        return crc ^ 0xFFFF_FFFF
    }
}

/// Reads the records out of a journal's bytes, past every damage it can
/// read past, in time linear in the bytes whatever they hold.
///
/// - A record whose header checks but whose payload does not is skipped by
///   its length (counted: `skipped`), unless a header begins within that
///   length: then the record was cut short and others follow, and the
///   search below takes over.
/// - Where a header does not check, the framing is lost: the next offset
///   whose header checks is searched for (`resync`). If the damaged record's
///   payload checksum matches the bytes up to there, only its header was hit
///   and the record is read all the same (`repaired`); otherwise the span is
///   unreadable (`unreadableBytes`) and reading goes on from there.
/// - A last record whose header checks but whose payload runs past the end
///   (or a few bytes too short for a header, or zeros) with nothing readable
///   after it is a torn tail: a write the process did not finish.
///
/// Version 1 records (8-byte header, no header checksum) are read in a
/// version 1 file (`isVersion1`): there a failing checksum is taken as payload damage
/// only when its length leads to the end or to a record that checks, and the
/// search also tries version 1 headers, whose payload checksums it computes
/// within a budget of twice the file's size (beyond it, the rest is kept
/// aside unread rather than searched in quadratic time).
struct JournalScan {
    /// Marks a version 2 header (its fourth byte); a version 1 length there
    /// would be over 16 MiB.
    static let tag: UInt8 = 0x1E
    static let legacyMaxPayload = 16 << 20

    struct Figures: Sendable {
        var records = 0
        var skipped = 0
        var repaired = 0
        var unreadableBytes = 0
        var unreadableSpans = 0
        var tornBytes = 0
        var legacyRecords = 0
        /// The offset of the first damaged byte (a torn tail is not damage).
        var firstDamage: Int?
    }

    struct Damage: Sendable {
        enum Kind: String, Sendable { case checksum = "payload checksum failed", repaired = "header damaged, record read", unreadable = "framing lost" }
        let offset: Int
        let bytes: Int
        let kind: Kind
    }

    private let bytes: [UInt8]
    private var legacy: Bool
    /// Payload bytes the version 1 search may still hash.
    private var legacyBudget: Int
    private(set) var payloads: [[UInt8]] = []
    private(set) var figures = Figures()
    /// The first `damageListed` damaged spans.
    private(set) var damage: [Damage] = []
    static let damageListed = 16
    /// Bytes checksummed so far: the replay's work, which tests bound.
    private(set) var checksummed = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        legacyBudget = 2 * bytes.count
        legacy = false
        legacy = isVersion1()
    }

    /// A version 1 file: its first record is a version 1 record that
    /// checks, or (its start damaged) no version 2 header checks anywhere in
    /// it. Damage at the start of a version 2 file (garbage or zeros before
    /// its first record) must not make it read as version 1.
    private mutating func isVersion1() -> Bool {
        let n = bytes.count
        guard n >= 8 else { return false }
        if n >= 12 && bytes[3] == JournalScan.tag && crc(0, 8) == readUInt32(bytes, 8) { return false }
        let length = Int(readUInt32(bytes, 0))
        if length > 0 && length <= n - 8 && crc(8, length) == readUInt32(bytes, 4) { return true }
        var o = 1
        while o + 12 <= n {
            if bytes[o + 3] == JournalScan.tag && crc(o, 8) == readUInt32(bytes, o + 8) { return false }
            o += 1
        }
        return true
    }

    private struct Framing { let payload: Int; let length: Int; let crc: UInt32; let legacy: Bool }

    private enum Found {
        case record(Framing)
        /// The framing holds; the payload's checksum fails.
        case damaged(next: Int)
        /// A record cut short, followed by others: a header begins inside
        /// what its length claims.
        case cut(next: Int)
        /// The framing holds; the payload runs past the end.
        case torn
        /// No header that can be trusted here.
        case lost
    }

    mutating func run() {
        let n = bytes.count
        var o = 0
        while o < n {
            switch examine(o) {
            case .record(let f):
                payloads.append(Array(bytes[f.payload..<(f.payload + f.length)]))
                figures.records += 1
                if f.legacy { figures.legacyRecords += 1 }
                o = f.payload + f.length
            case .damaged(let next):
                note(o, next - o, .checksum)
                figures.skipped += 1
                o = next
            case .cut(let next):
                note(o, next - o, .unreadable)
                figures.unreadableBytes += next - o
                figures.unreadableSpans += 1
                o = next
            case let found:
                let next = resync(from: o + 1)
                let end = next ?? n
                if let payload = repair(o, end) {
                    payloads.append(payload)
                    figures.records += 1
                    figures.repaired += 1
                    note(o, end - o, .repaired)
                } else if next == nil && isTorn(o, found) {
                    figures.tornBytes = n - o
                } else {
                    note(o, end - o, .unreadable)
                    figures.unreadableBytes += end - o
                    figures.unreadableSpans += 1
                }
                o = end
            }
        }
    }

    private mutating func note(_ offset: Int, _ count: Int, _ kind: Damage.Kind) {
        if figures.firstDamage == nil { figures.firstDamage = offset }
        if damage.count < JournalScan.damageListed { damage.append(Damage(offset: offset, bytes: count, kind: kind)) }
    }

    /// A tail with nothing readable after `o`: a record cut short, a header
    /// cut short, or zeros (space a file system gave the file, never written).
    private mutating func crc(_ from: Int, _ count: Int) -> UInt32 {
        checksummed += count
        return CRC32.checksum(bytes, from, count)
    }

    private func isTorn(_ o: Int, _ found: Found) -> Bool {
        if case .torn = found { return true }
        if bytes.count - o < (legacy ? 8 : 12) { return true }
        for i in o..<bytes.count where bytes[i] != 0 { return false }
        return true
    }

    /// The header at `o` if it can be trusted: a version 2 header whose
    /// checksum holds, or (in a version 1 file) a plausible length.
    private mutating func framing(_ o: Int) -> Framing? {
        let n = bytes.count
        if o + 12 <= n && bytes[o + 3] == JournalScan.tag && crc(o, 8) == readUInt32(bytes, o + 8) {
            return Framing(payload: o + 12, length: Int(readUInt32(bytes, o) & 0xFF_FFFF), crc: readUInt32(bytes, o + 4), legacy: false)
        }
        // No record was ever empty: 8 zero bytes are no version 1 record.
        if legacy && o + 8 <= n {
            let length = Int(readUInt32(bytes, o))
            if length > 0 && length <= JournalScan.legacyMaxPayload { return Framing(payload: o + 8, length: length, crc: readUInt32(bytes, o + 4), legacy: true) }
        }
        return nil
    }

    private mutating func verifies(_ f: Framing) -> Bool {
        f.payload + f.length <= bytes.count && crc(f.payload, f.length) == f.crc
    }

    private mutating func examine(_ o: Int) -> Found {
        guard let f = framing(o) else { return .lost }
        let end = f.payload + f.length
        if end > bytes.count { return .torn }
        if crc(f.payload, f.length) == f.crc { return .record(f) }
        if !f.legacy {
            // A write cut short and followed by others (its partial record
            // not cut off) claims their bytes: a header inside its payload
            // shows it. (That search reaches `end` in the other case; a byte
            // is searched at most twice, here and after `end`.)
            if let inside = resync(from: f.payload), inside < end { return .cut(next: inside) }
            return .damaged(next: end)
        }
        // A version 1 length has no checksum of its own: trust it only if it
        // leads to the end or to a record that checks.
        if end == bytes.count { return .damaged(next: end) }
        if let next = framing(end), verifies(next) { return .damaged(next: end) }
        return .lost
    }

    /// The first offset from `start` where a trusted header begins (for
    /// version 1, whose payload checks too), or nil. Each offset costs a
    /// byte compare and at most an 8-byte checksum; version 1 candidates
    /// also a payload checksum, within `legacyBudget` overall.
    private mutating func resync(from start: Int) -> Int? {
        let n = bytes.count
        var o = start
        while o + 8 <= n {
            if o + 12 <= n && bytes[o + 3] == JournalScan.tag && crc(o, 8) == readUInt32(bytes, o + 8) {
                return o
            }
            if legacy {
                let length = Int(readUInt32(bytes, o)), end = o + 8 + length
                // Cheap first: the record must end at the end or before a plausible header.
                if length > 0 && length <= min(JournalScan.legacyMaxPayload, legacyBudget) && end <= n
                    && (end == n || (end + 8 <= n && (readUInt32(bytes, end) <= UInt32(JournalScan.legacyMaxPayload) || (end + 12 <= n && bytes[end + 3] == JournalScan.tag)))) {
                    legacyBudget -= length
                    if crc(o + 8, length) == readUInt32(bytes, o + 4) { return o }
                }
            }
            o += 1
        }
        return nil
    }

    /// The payload of a record at `o` whose header is damaged, if its
    /// payload checksum matches the bytes from after its header to `end`.
    private mutating func repair(_ o: Int, _ end: Int) -> [UInt8]? {
        for header in legacy ? [12, 8] : [12] {
            // No record of ours is empty: an empty "payload" proves nothing.
            let length = end - o - header
            guard length > 0 && length <= (header == 8 ? JournalScan.legacyMaxPayload : Journal.maxPayload) else { continue }
            if crc(o + header, length) == readUInt32(bytes, o + 4) {
                return Array(bytes[(o + header)..<end])
            }
        }
        return nil
    }
}
