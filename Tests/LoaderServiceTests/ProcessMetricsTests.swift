import Glibc
import Testing
@testable import LoaderService

/// The `process_*` metrics: /proc parsed as proc(5) numbers its fields,
/// and the live values against what other system calls say.
struct ProcessMetricsTests {
    /// A stat line whose command name holds spaces and parentheses; the
    /// fields by proc(5)'s numbers: utime (14) 250, stime (15) 50,
    /// starttime (22) 4011773, vsize (23) 3133440, rss (24) 360.
    @Test func aStatLineIsReadByFieldNumber() throws {
        let line = "30550 (a (b) c) R 30548 30548 15405 0 -1 4194304 99 0 0 0 250 50 0 0 20 0 1 0 4011773 3133440 360 "
            + "18446744073709551615 94202568339456 94202568359337 140737305767376 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0 "
            + "94202568375344 94202568376960 94202935398400 140737305774799 140737305774819 140737305774819 140737305776107 0\n"
        let stat = try #require(ProcessMetrics.parseStat(Array(line.utf8)))
        #expect(stat == ProcessMetrics.Stat(cpuTicks: 300, startTicks: 4_011_773, virtualBytes: 3_133_440, residentPages: 360))
        #expect(ProcessMetrics.parseStat(Array("30550 (cut) R 1 2 3".utf8)) == nil)
        #expect(ProcessMetrics.parseStat(Array("no name at all".utf8)) == nil)
    }

    @Test func theBootTimeIsTheBtimeLine() {
        let text = "cpu  2887765 51511 405672 4592922 18799 0 26836 2745 0 0\nintr 1 2 3\nctxt 99\nbtime 1796371575\nprocesses 30551\n"
        #expect(ProcessMetrics.parseBootTime(Array(text.utf8)) == 1_796_371_575)
        #expect(ProcessMetrics.parseBootTime(Array("cpu 1 2\n".utf8)) == nil)
    }

    /// Against the kernel's other accounts: getrusage for the CPU time
    /// (the same clock, read before and after), the boot clock for the
    /// boot time.
    @Test func liveValuesAgreeWithOtherSystemCalls() throws {
        func rusageSeconds() -> Double {
            var usage = rusage()
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
        let before = rusageSeconds()
        let stat = try #require(ProcessMetrics.read("/proc/self/stat").flatMap(ProcessMetrics.parseStat))
        let after = rusageSeconds()
        let cpu = Double(stat.cpuTicks) / ProcessMetrics.ticksPerSecond
        // /proc counts whole ticks (1/100 s) of user and of system time: it may trail by two.
        #expect(cpu >= before - 0.021 && cpu <= after + 0.001, "\(before) \(cpu) \(after)")

        var sinceBoot = timespec()
        clock_gettime(CLOCK_BOOTTIME, &sinceBoot)
        let now = Double(time(nil))
        let boot = try #require(ProcessMetrics.read("/proc/stat").flatMap(ProcessMetrics.parseBootTime))
        #expect(abs(Double(boot) - (now - Double(sinceBoot.tv_sec))) <= 2)
        let start = try #require(ProcessMetrics.startTimeSeconds)
        #expect(start >= Double(boot) && start <= now + 1)
        #expect(stat.residentPages > 0 && stat.virtualBytes >= stat.residentPages * ProcessMetrics.pageSize)
    }
}
