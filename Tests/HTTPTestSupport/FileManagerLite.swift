import Glibc

/// Removes a directory tree (test clean-up).
public enum FileManagerLite {
    public static func removeTree(_ path: String) throws {
        if let dir = opendir(path) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name == "." || name == ".." { continue }
                unlink(path + "/" + name)
            }
            closedir(dir)
        }
        rmdir(path)
    }
}
