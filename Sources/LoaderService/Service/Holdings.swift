/// Values kept by key while something holds them: the frames that the
/// streams of a loop share (`SessionViewers`, `SharedClockViewers`), and
/// the process's shared-clock slots (behind their lock). A value is made
/// for its key's first holder and let go with its last. Not thread-safe.
final class Holdings<Key: Hashable, Value: AnyObject> {
    private var entries: [Key: (value: Value, holders: Int)] = [:]

    /// The value of `key`, made by `make` for its first holder.
    func acquire(_ key: Key, make: () -> Value) -> Value {
        let entry = entries[key] ?? (make(), 0)
        entries[key] = (entry.value, entry.holders + 1)
        return entry.value
    }

    /// A holder of `key` lets go; true when it was the last, and the value
    /// is no longer kept.
    @discardableResult
    func release(_ key: Key) -> Bool {
        guard let entry = entries[key] else { return false }
        entries[key] = entry.holders > 1 ? (entry.value, entry.holders - 1) : nil
        return entry.holders <= 1
    }

    var count: Int { entries.count }
}
