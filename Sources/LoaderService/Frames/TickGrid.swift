
/// Tick j of a grid is due at `offset + ceil(j · period)`, in monotonic ns.
/// Grids of one fps differ only in their offset, a whole number of
/// milliseconds within the period: the phases that streams are grouped by.
struct TickGrid: Hashable {
    static let quantum: UInt64 = 1_000_000
    /// 1/fps in ns.
    let period: Double
    let offset: UInt64

    func deadline(of j: Int) -> UInt64 { offset &+ UInt64((Double(j) * period).rounded(.up)) }

    /// The last tick due at `now` (-1 before the first).
    func tick(at now: UInt64) -> Int {
        guard now >= offset else { return -1 }
        var j = Int((Double(now - offset) / period).rounded(.down))
        while deadline(of: j + 1) <= now { j += 1 }
        while j >= 0 && deadline(of: j) > now { j -= 1 }
        return j
    }

    /// The grid, and its tick, due first at `time` or less than a quantum
    /// after it.
    static func place(_ time: UInt64, fps: Double) -> (grid: TickGrid, tick: Int) {
        let period = 1e9 / fps
        let j = Int((Double(time) / period).rounded(.down))
        let base = UInt64((Double(j) * period).rounded(.up))
        guard time > base else { return (TickGrid(period: period, offset: 0), j) }
        let offset = (time - base + quantum - 1) / quantum * quantum
        // Past the period the next tick of the grid without offset comes first.
        guard Double(offset) < period else { return (TickGrid(period: period, offset: 0), j + 1) }
        return (TickGrid(period: period, offset: offset), j)
    }
}
