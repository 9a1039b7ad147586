import FoundationEssentials
import Glibc
import HTTPTestSupport
import LoaderEngine
import Synchronization
import Testing
@testable import LoaderSessions

/// The journal's replay against damage, on files built byte by byte here:
/// the framing and the CRC-32 below are the test's own (from the record
/// format's description), not the journal's code.
@Suite struct JournalTests {
    /// CRC-32 (IEEE 802.3) bit by bit, without a table.
    static func crc32(_ bytes: some Collection<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~crc
    }

    static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }

    /// Version 2: [length u24][0x1E][payload crc][crc of the 8 bytes before].
    static func record(_ payload: [UInt8]) -> [UInt8] {
        var header = le32(UInt32(payload.count) | 0x1E00_0000) + le32(crc32(payload))
        header += le32(crc32(header))
        return header + payload
    }

    /// Version 1 (journals written before the header checksum): [length u32][payload crc].
    static func legacyRecord(_ payload: [UInt8]) -> [UInt8] {
        le32(UInt32(payload.count)) + le32(crc32(payload)) + payload
    }

    /// Seven payloads of 52 to 64 bytes. In the version 1 test no run of
    /// whole records after the middle one is a power of two long (checked
    /// there), so a length with one bit flipped never lands on a later
    /// record's start.
    static let payloads: [[UInt8]] = (0..<7).map { i in
        Array(#"{"op":"event","id":"s\#(i)","type":"progress","t":\#(i).25\#(String(repeating: "0", count: 2 * i + 1))}"#.utf8)
    }

    final class Directory {
        let path = "/tmp/loaderd-journal-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        init() { mkdir(path, 0o700) }
        deinit { try? FileManagerLite.removeTree(path) }
        var journal: String { path + "/sessions.journal" }
        func write(_ bytes: [UInt8]) throws { try Data(bytes).write(to: URL(fileURLWithPath: journal)) }
        func read(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path + "/" + name))) }
        var files: [String] {
            var names: [String] = []
            if let dir = opendir(path) {
                while let entry = readdir(dir) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                    if name != "." && name != ".." { names.append(name) }
                }
                closedir(dir)
            }
            return names.sorted()
        }
    }

    func replay(_ bytes: [UInt8]) throws -> (Journal.Replay, Directory) {
        let directory = Directory()
        try directory.write(bytes)
        let journal = try Journal(path: directory.journal)
        return (try journal.replay(), directory)
    }

    @Test func ourCRCIsTheStandardOne() {
        // The check value of CRC-32/ISO-HDLC.
        #expect(Self.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
    }

    @Test func anIntactJournalReplaysWhole() throws {
        let (replay, directory) = try replay(Self.payloads.flatMap(Self.record))
        #expect(replay.payloads == Self.payloads)
        #expect(!replay.mustRewrite && replay.keptAside == nil && replay.figures.firstDamage == nil)
        #expect(directory.files == ["sessions.journal"])
    }

    /// Every bit of the middle record flipped, one at a time: every other
    /// record is replayed; the middle one too when only its header's length,
    /// marker or header checksum was hit (its payload checksum then matches
    /// the bytes up to the next record), never when its payload or payload
    /// checksum was. The file from the damage on is kept aside, byte for byte.
    @Test func aFlippedBitInAMiddleRecordLosesNoOtherRecord() throws {
        let records = Self.payloads.map(Self.record)
        let middle = 3
        let start = records[..<middle].reduce(0) { $0 + $1.count }
        let file = records.flatMap { $0 }
        for byte in 0..<records[middle].count {
            for bit in 0..<8 {
                var damaged = file
                damaged[start + byte] ^= 1 << bit
                let (replay, directory) = try replay(damaged)
                let part = byte < 4 ? "length or marker" : byte < 8 ? "payload checksum" : byte < 12 ? "header checksum" : "payload"
                let readAnyway = part == "length or marker" || part == "header checksum"
                var expected = Self.payloads
                if !readAnyway { expected.remove(at: middle) }
                #expect(replay.payloads == expected, "bit \(bit) of byte \(byte) (\(part))")
                let f = replay.figures
                #expect(f.repaired == (readAnyway ? 1 : 0) && f.skipped == (part == "payload" ? 1 : 0), "\(part)")
                #expect(f.unreadableBytes == (part == "payload checksum" ? records[middle].count : 0), "\(part)")
                #expect(f.tornBytes == 0 && f.firstDamage == start)
                #expect(replay.mustRewrite)
                let kept = try #require(replay.keptAside)
                #expect(kept.bytes == file.count - start && kept.from == start)
                let name = String(kept.path.split(separator: "/").last!)
                #expect(name.hasPrefix("sessions.journal.damaged-"))
                #expect(try directory.read(name) == Array(damaged[start...]))
            }
        }
    }

    @Test func aFlippedBitInTheFirstOrLastRecordLosesNoOtherRecord() throws {
        let records = Self.payloads.map(Self.record)
        let file = records.flatMap { $0 }
        for (index, start) in [(0, 0), (records.count - 1, file.count - records.last!.count)] {
            for (byte, readAnyway) in [(1, true), (5, false), (9, true), (20, false)] {
                var damaged = file
                damaged[start + byte] ^= 0x10
                let (replay, _) = try replay(damaged)
                var expected = Self.payloads
                if !readAnyway { expected.remove(at: index) }
                #expect(replay.payloads == expected, "record \(index), byte \(byte)")
                #expect(replay.keptAside?.from == start && replay.figures.tornBytes == 0)
            }
        }
    }

    /// A last record cut anywhere (a write the process did not finish) is
    /// cut off the file; nothing is kept aside, since nothing was written whole.
    @Test func aTornTailIsCutAtEveryLength() throws {
        let file = Self.payloads.flatMap(Self.record)
        let last = Self.record(Self.payloads.last!)
        let good = file.count - last.count
        for kept in 1..<last.count {
            let (replay, directory) = try replay(Array(file[..<(good + kept)]))
            #expect(replay.payloads == Array(Self.payloads.dropLast()), "\(kept) bytes of the last record")
            #expect(replay.figures.tornBytes == kept && replay.keptAside == nil && !replay.mustRewrite)
            #expect(try directory.read("sessions.journal").count == good)
            #expect(directory.files == ["sessions.journal"])
        }
        // Zeros after the last record (space never written) are cut the same way.
        let (zeros, _) = try replay(file + [UInt8](repeating: 0, count: 4096))
        #expect(zeros.payloads == Self.payloads && zeros.figures.tornBytes == 4096 && zeros.keptAside == nil)
    }

    /// A start that fails after keeping the damage aside (say the rewrite
    /// finds the disk full) and is tried again keeps no second copy; other
    /// damage gets a file of its own.
    @Test func theSameDamageIsKeptOnce() throws {
        var file = Self.payloads.flatMap(Self.record)
        file[40] ^= 0x20
        let (first, directory) = try replay(file)
        let again = try Journal(path: directory.journal).replay()
        #expect(first.keptAside != nil && again.keptAside?.path == first.keptAside?.path)
        #expect(directory.files.count == 2)
        file[41] ^= 0x20
        try directory.write(file)
        let other = try Journal(path: directory.journal).replay()
        #expect(other.keptAside != nil && other.keptAside?.path != first.keptAside?.path)
        #expect(directory.files.count == 3)
    }

    /// A record cut short in the middle of the file, whole records after it
    /// (a write that failed part-way and was not cut off): its header claims
    /// the bytes of the records that follow, yet every one of them is read.
    @Test func aRecordCutShortInTheMiddleLosesNoRecordAfterIt() throws {
        let records = Self.payloads.map(Self.record)
        let middle = 3
        let start = records[..<middle].reduce(0) { $0 + $1.count }
        for kept in 1..<records[middle].count {
            let file = records[..<middle].flatMap { $0 } + records[middle].prefix(kept) + records[(middle + 1)...].flatMap { $0 }
            let (replay, _) = try replay(file)
            var expected = Self.payloads
            expected.remove(at: middle)
            #expect(replay.payloads == expected, "\(kept) bytes of the middle record")
            #expect(replay.figures.unreadableBytes == kept && replay.keptAside?.from == start, "\(kept) bytes")
        }
    }

    /// Bytes after the last record that are neither a record nor a torn one
    /// are kept aside, not cut.
    @Test func garbageAfterTheLastRecordIsKeptAside() throws {
        let file = Self.payloads.flatMap(Self.record)
        let garbage = Array("this is not a journal record, and it is longer than a header".utf8)
        let (replay, directory) = try replay(file + garbage)
        #expect(replay.payloads == Self.payloads)
        #expect(replay.figures.unreadableBytes == garbage.count && replay.figures.tornBytes == 0)
        let kept = try #require(replay.keptAside)
        #expect(try directory.read(String(kept.path.split(separator: "/").last!)) == garbage)
    }

    /// A seeded generator (xorshift64*), so that a failing case can be run again.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12; state ^= state << 25; state ^= state >> 27
            return state &* 0x2545_F491_4F6C_DD1D
        }
    }

    /// Damage of every kind at random, several at once: each record is kept,
    /// has a bit flipped, is cut short, has its header overwritten, or has
    /// garbage or zeros put before it. Every record left whole is read, in
    /// order, and nothing is read that was not written; the work stays
    /// within the bound.
    @Test func everyWholeRecordIsReadWhateverTheDamageAround() throws {
        for seed in UInt64(1)...2000 {
            var g = Seeded(state: seed &* 0x9E37_79B9_7F4A_7C15)
            let payloads = (0..<20).map { i in
                Array(#"{"op":"event","id":"s\#(i)","t":\#(i)\#(String(repeating: "7", count: Int.random(in: 0...40, using: &g)))}"#.utf8)
            }
            var file: [UInt8] = []
            var whole: [Int] = []
            for (i, payload) in payloads.enumerated() {
                var r = Self.record(payload)
                switch Int.random(in: 0..<10, using: &g) {
                case 0: r[Int.random(in: 0..<r.count, using: &g)] ^= 1 << UInt8.random(in: 0..<8, using: &g)
                case 1: r = Array(r.prefix(Int.random(in: 1..<r.count, using: &g)))
                case 2: for j in 0..<12 { r[j] = UInt8.random(in: 0...255, using: &g) }
                case 3: file += (0..<Int.random(in: 1...40, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) }; whole.append(i)
                case 4: file += [UInt8](repeating: 0, count: Int.random(in: 1...40, using: &g)); whole.append(i)
                default: whole.append(i)
                }
                file += r
            }
            var scan = JournalScan(file)
            scan.run()
            // Greedy matching is exact: the payloads differ from one another.
            var next = 0, matched: [Int] = []
            for p in scan.payloads {
                guard let at = payloads[next...].firstIndex(of: p) else {
                    Issue.record("seed \(seed): a payload read out of order or never written")
                    break
                }
                matched.append(at)
                next = at + 1
            }
            #expect(Set(whole).isSubset(of: Set(matched)), "seed \(seed): whole records \(whole), read \(matched)")
            #expect(scan.checksummed <= 31 * file.count + 64, "seed \(seed)")
        }
    }

    /// Journals written before the header checksum still replay, and are
    /// rewritten; a flipped bit in a middle record loses that record at
    /// most, and none when it hit the length.
    @Test func aVersionOneJournalReplaysAndReadsPastAFlippedBit() throws {
        let records = Self.payloads.map(Self.legacyRecord)
        let file = records.flatMap { $0 }
        let (whole, _) = try replay(file)
        #expect(whole.payloads == Self.payloads && whole.mustRewrite && whole.keptAside == nil)
        #expect(whole.figures.legacyRecords == Self.payloads.count)
        let middle = 3
        // The premise of the exact expectations below (see `payloads`).
        var run = 0
        for r in records[(middle + 1)...] {
            run += r.count
            #expect(run & (run - 1) != 0, "\(run) bytes of records after the middle one")
        }
        let start = records[..<middle].reduce(0) { $0 + $1.count }
        for byte in 0..<records[middle].count {
            for bit in 0..<8 {
                var damaged = file
                damaged[start + byte] ^= 1 << bit
                let (replay, directory) = try replay(damaged)
                var expected = Self.payloads
                if byte >= 4 { expected.remove(at: middle) }
                #expect(replay.payloads == expected, "bit \(bit) of byte \(byte)")
                let kept = try #require(replay.keptAside)
                #expect(kept.from == start && kept.bytes == file.count - start)
                #expect(try directory.read(String(kept.path.split(separator: "/").last!)) == Array(damaged[start...]))
            }
        }
        // And a torn version 1 tail is cut as before.
        let (torn, _) = try replay(Array(file.dropLast(5)))
        #expect(torn.payloads == Array(Self.payloads.dropLast()) && torn.figures.tornBytes == records.last!.count - 5)
    }

    /// The work of a replay, in bytes checksummed, for shapes that would make
    /// a search trying every offset quadratic: bounded by a multiple of the
    /// file's size. Per byte: the version test (the first record's payload,
    /// then an 8-byte header check per offset if that fails), its payload
    /// check, a look-ahead check (version 1), two repair attempts, an 8-byte
    /// header check at most twice per offset (a damaged record's payload is
    /// searched for a header, and again from its end on), and the version 1
    /// search's budget of twice the file: 1 + 8 + 1 + 1 + 2 + 16 + 2 = 31.
    @Test func replayWorkIsLinearWhateverTheBytes() throws {
        let n = 1 << 20
        // Every 4th offset a version 1 header of a 64 KiB payload that fits,
        // followed by another such header: without a budget, every one of
        // them is checksummed (n / 4 * 64 KiB).
        let plausible = (0..<(n / 4)).flatMap { _ in Self.le32(64 << 10) }
        // A version 2 record, then the marker at every offset.
        let markers = Self.record(Self.payloads[0]) + [UInt8](repeating: 0x1E, count: n)
        var generator = SystemRandomNumberGenerator()
        let random = (0..<n).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // One good record, then a damaged one claiming the largest payload.
        let large = Self.record(Self.payloads[0]) + Self.le32(0x1EFF_FFFF) + [UInt8](repeating: 0x41, count: n)
        // A header that checks, claiming half of a run of markers, whose payload does not.
        var claim = Self.le32(UInt32(n / 2) | 0x1E00_0000) + Self.le32(0)
        claim += Self.le32(Self.crc32(claim))
        let searchedTwice = Self.record(Self.payloads[0]) + claim + [UInt8](repeating: 0x1E, count: n)
        for (name, bytes) in [("plausible version 1 headers", plausible), ("markers", markers), ("random", random), ("large", large),
                              ("searched twice", searchedTwice)] {
            var scan = JournalScan(bytes)
            scan.run()
            #expect(scan.checksummed <= 31 * bytes.count + 64, "\(name): \(scan.checksummed) bytes checksummed for \(bytes.count)")
            let f = scan.figures
            #expect(f.tornBytes + f.unreadableBytes + scan.payloads.reduce(0) { $0 + $1.count } <= bytes.count, "\(name)")
        }
    }

    /// A journal as the code before wrote it (version 1 records) opens: its
    /// sessions and events are all there, and it is rewritten as version 2.
    @Test func aVersionOneJournalOpensAndIsRewritten() throws {
        let directory = Directory()
        let created = Double(time(nil)) - 10
        var file = Self.legacyRecord(Array(#"{"op":"create","id":"old","token":"secret","loader":"web","params":{},"createdAt":\#(created)}"#.utf8))
        for t in [1.5, 2.5, 3.5] {
            file += Self.legacyRecord(Array(#"{"op":"event","id":"old","type":"progress","t":\#(t)}"#.utf8))
        }
        try directory.write(file)
        let store = try LocalSessionStore(limits: .init(), catalog: .standard, dataDirectory: directory.path, logger: NoLog())
        #expect(try store.snapshot("old").events.map(\.t) == [1.5, 2.5, 3.5])
        // New records follow in version 2.
        let written = Atomic<Bool>(false)
        try #require(store.post(.progress, to: "old", token: "secret").1).whenDone { written.store($0, ordering: .relaxed) }
        #expect(eventually(10) { written.load(ordering: .relaxed) })
        let rewritten = try directory.read("sessions.journal")
        #expect(JournalScanCheck.clean(rewritten) && Self.records(in: rewritten).count == 5)
        #expect(directory.files == ["sessions.journal"])
    }

    @Test func aCompactionLeftoverIsRemovedOnOpening() throws {
        let directory = Directory()
        try directory.write(Self.payloads.flatMap(Self.record))
        try Data(repeating: 7, count: 3000).write(to: URL(fileURLWithPath: directory.journal + ".compact"))
        let journal = try Journal(path: directory.journal)
        #expect(journal.leftoverRemoved == 3000)
        #expect(directory.files == ["sessions.journal"])
        #expect(try journal.replay().payloads == Self.payloads)
    }

    /// Offsets, lengths and payloads of the version 2 records in `file`, by the test's own framing.
    static func records(in file: [UInt8]) -> [(offset: Int, count: Int, payload: [UInt8])] {
        var out: [(Int, Int, [UInt8])] = [], o = 0
        while o + 12 <= file.count {
            let length = Int(file[o]) | Int(file[o + 1]) << 8 | Int(file[o + 2]) << 16
            out.append((o, 12 + length, Array(file[(o + 12)..<(o + 12 + length)])))
            o += 12 + length
        }
        return out
    }

    /// What a lost record means for the sessions: a lost event is missing
    /// from its session, whose other events stay, in order; a lost create
    /// takes its session (its events have nowhere to go); other sessions
    /// are untouched. The store counts the skipped record in /metrics.
    @Test func aStoreReopenedOnADamagedJournalKeepsEveryOtherEvent() throws {
        let web = LoaderCatalog.standard["web"]!
        for lost in ["event", "create"] {
            let directory = Directory()
            var acknowledged: [String: [SessionEvent]] = [:]
            var ids: [String] = []
            do {
                let store = try LocalSessionStore(limits: .init(), catalog: .standard, dataDirectory: directory.path, logger: NoLog())
                let done = Atomic<Int>(0)
                var tickets = 0
                for _ in 0..<3 {
                    let (created, ticket) = try store.create(definition: web, params: [], loader: web.configure())
                    ticket!.whenDone { if $0 { done.add(1, ordering: .relaxed) } }
                    tickets += 1
                    ids.append(created.id)
                    for _ in 0..<5 {
                        let (event, ticket) = try store.post(.progress, to: created.id, token: created.token)
                        ticket!.whenDone { if $0 { done.add(1, ordering: .relaxed) } }
                        tickets += 1
                        acknowledged[created.id, default: []].append(event)
                    }
                }
                #expect(eventually(10) { done.load(ordering: .relaxed) == tickets })
            }
            var file = try directory.read("sessions.journal")
            let records = Self.records(in: file)
            #expect(records.count == 18)
            // The second session's third event, or its create.
            let victim = ids[1]
            let mine = records.filter { String(decoding: $0.payload, as: UTF8.self).contains(#""id":"\#(victim)""#) }
            let target = lost == "event" ? mine[3] : mine[0]
            #expect(String(decoding: target.payload, as: UTF8.self).contains(#""op":"\#(lost)""#))
            file[target.offset + 12 + target.count / 2 - 6] ^= 0x01
            try directory.write(file)
            let store = try LocalSessionStore(limits: .init(), catalog: .standard, dataDirectory: directory.path, logger: NoLog())
            for id in ids where id != victim { #expect(try store.snapshot(id).events == acknowledged[id]!) }
            if lost == "event" {
                var expected = acknowledged[victim]!
                expected.remove(at: 2)
                #expect(try store.snapshot(victim).events == expected)
            } else {
                #expect((try? store.snapshot(victim)) == nil)
            }
            let metrics = store.metrics.map { m -> String in
                if case .int(let v) = m.value { return "\(m.name) \(v)" }
                return m.name
            }
            #expect(metrics.contains("loaderd_journal_skipped_records 1") && metrics.contains("loaderd_journal_unreadable_bytes 0"))
            // The damaged file was kept aside, from the damaged record on.
            let kept = try #require(directory.files.first { $0.hasPrefix("sessions.journal.damaged-") })
            #expect(try directory.read(kept) == Array(file[target.offset...]))
            // The journal was rewritten without the damage: a second start reads it clean.
            #expect(JournalScanCheck.clean(try directory.read("sessions.journal")))
        }
    }
}

/// Whether every record of a version 2 file checks, by the test's framing.
enum JournalScanCheck {
    static func clean(_ file: [UInt8]) -> Bool {
        let records = JournalTests.records(in: file)
        return records.reduce(0) { $0 + $1.count } == file.count && records.allSatisfy { r in
            let header = Array(file[r.offset..<(r.offset + 12)])
            return header[3] == 0x1E && JournalTests.le32(JournalTests.crc32(r.payload)) == Array(header[4..<8])
                && JournalTests.le32(JournalTests.crc32(header[0..<8])) == Array(header[8..<12])
        }
    }
}

/// A store's log lines, dropped: these tests read the journal, not the log.
final class NoLog: SessionLogger {
    func log(_ l: LogLevel, _ message: String, _ fields: [(String, LogField)]) {}
}
