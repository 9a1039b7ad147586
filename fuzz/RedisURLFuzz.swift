// libFuzzer target: the URLs of `sessionStore` in Redis (`redis://…` and
// `redis-sentinel://…`). Nothing may crash or hang, and a Sentinel URL that
// parses is read back the same once written from its parts (its hosts,
// primary name, credentials and database say all there is to it).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRedisURL(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    _ = try? RedisURL(parsing: text)
    guard let url = try? RedisSentinelURL(parsing: text) else { return 0 }
    guard !url.sentinels.isEmpty, url.sentinels.count <= RedisSentinelURL.maxSentinels, !url.primaryName.isEmpty else {
        fatalError("a Sentinel URL parsed with no Sentinel, too many, or no primary name")
    }
    var written = "redis-sentinel://"
    if let password = url.password { written += "\(url.user ?? ""):\(password)@" }
    written += url.sentinels.map(\.description).joined(separator: ",") + "/" + url.primaryName
    if url.database != 0 { written += "/\(url.database)" }
    guard let again = try? RedisSentinelURL(parsing: written), again == url else {
        fatalError("\(written) does not read back as the URL it was written from")
    }
    // What is printed holds `***` where the password was.
    if url.password != nil, (try? RedisSentinelURL(parsing: url.description))?.password != "***" {
        fatalError("the description does not hide the password")
    }
    return 0
}
