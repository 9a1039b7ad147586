import FoundationEssentials
@testable import LoaderEngine

/// Splits a query string into percent-decoded items, as the HTTP layer does.
func queryItems(_ query: String) -> [(name: String, value: String)] {
    query.split(separator: "&").map { pair in
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        return (percentDecoded(parts[0]), parts.count > 1 ? percentDecoded(parts[1]) : "")
    }
}

func percentDecoded(_ text: Substring) -> String {
    var bytes = [UInt8]()
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
        if byte == UInt8(ascii: "%"), let hi = iterator.next(), let lo = iterator.next(),
           let value = UInt8(String(decoding: [hi, lo], as: UTF8.self), radix: 16) {
            bytes.append(value)
        } else if byte == UInt8(ascii: "+") {
            bytes.append(UInt8(ascii: " "))
        } else {
            bytes.append(byte)
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// The frame JSON shape, decoded independently of the encoder.
struct DecodedFrame: Decodable, Equatable {
    struct Element: Decodable, Equatable {
        let id: String
        let shape: String
        let x, y, diameter, scale, opacity: Double
        let color: String
    }
    let loader: String
    let t: Double
    let width: Double
    let height: Double
    let done: Bool
    let background: String?
    let elements: [Element]
}

func decodeFrame(_ bytes: [UInt8]) throws -> DecodedFrame {
    try JSONDecoder().decode(DecodedFrame.self, from: Data(bytes))
}

/// The file beside this test target's sources.
func fixture(_ name: String) throws -> Data {
    let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    return try Data(contentsOf: here.appendingPathComponent("Fixtures").appendingPathComponent(name))
}

func frame(_ loader: String, _ query: String) throws -> Frame {
    try FrameQuery(LoaderCatalog.standard[loader]!, items: queryItems(query)).frame()
}
