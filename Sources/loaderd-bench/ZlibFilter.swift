#if canImport(Glibc)
import Glibc
#endif
import Codecs

/// `loaderd-bench zlib < in > out`: standard input as a zlib stream, for
/// the round trip through Python's zlib (Tests/system/pictures_test.py).
enum ZlibFilter {
    static func run() {
        var input: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            input += buffer[0..<n]
        }
        let output = Deflate.zlib(input)
        var written = 0
        while written < output.count {
            let n = output[written...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if n <= 0 { exit(1) }
            written += n
        }
    }
}
