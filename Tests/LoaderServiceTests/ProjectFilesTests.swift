import FoundationEssentials
import Testing
@testable import LoaderService

/// The repository's own files as a user meets them: the docs hold no link
/// that does not resolve and none outside the repository, and the version
/// is the one the service answers everywhere it is written.
struct ProjectFilesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path

    static func read(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: root + "/" + path)), as: UTF8.self)
    }

    /// The Markdown files of the repository, relative to its root.
    static func markdownFiles() throws -> [String] {
        let skipped = [".build", ".git", "ci-output", ".swiftpm"]
        return try FileManager.default.subpathsOfDirectory(atPath: root)
            .filter { path in path.hasSuffix(".md") && !skipped.contains { path == $0 || path.hasPrefix($0 + "/") } }
            .sorted()
    }

    /// Link targets in Markdown text outside fenced code: `](target)`, and
    /// `src="…"` / `href="…"` of inline HTML.
    static func links(_ text: String) -> [String] {
        var found: [String] = []
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.drop(while: { $0 == " " }).hasPrefix("```") { fenced.toggle(); continue }
            if fenced { continue }
            // Inline code is not a link either.
            var plain = ""
            var inCode = false
            for c in line {
                if c == "`" { inCode.toggle(); continue }
                if !inCode { plain.append(c) }
            }
            var rest = Substring(plain)
            while let open = Self.find("](", in: rest) {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                found.append(String(after[..<close]).split(separator: " ").first.map(String.init) ?? "")
                rest = after[close...]
            }
            for attribute in ["src=\"", "href=\""] {
                var rest = Substring(plain)
                while let open = Self.find(attribute, in: rest) {
                    let after = rest[open.upperBound...]
                    guard let close = after.firstIndex(of: "\"") else { break }
                    found.append(String(after[..<close]))
                    rest = after[close...]
                }
            }
        }
        return found
    }

    /// Where `needle` first occurs in `text`.
    static func find(_ needle: String, in text: Substring) -> Range<Substring.Index>? {
        var start = text.startIndex
        while start < text.endIndex {
            if text[start...].hasPrefix(needle) { return start..<text.index(start, offsetBy: needle.count) }
            start = text.index(after: start)
        }
        return nil
    }

    /// The anchors of a Markdown file's headings, as GitHub makes them:
    /// lower case, punctuation dropped, spaces to hyphens.
    static func anchors(_ text: String) -> Set<String> {
        var found: Set<String> = []
        var fenced = false
        for line in text.split(separator: "\n") {
            if line.drop(while: { $0 == " " }).hasPrefix("```") { fenced.toggle(); continue }
            guard !fenced, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.drop { $0 == " " }
            var slug = ""
            for c in title.lowercased() {
                if c.isLetter || c.isNumber || c == "-" || c == "_" { slug.append(c) } else if c == " " { slug.append("-") }
            }
            found.insert(slug)
        }
        return found
    }

    @Test func everyRelativeLinkResolvesAndNoneLeavesTheRepository() throws {
        let files = try Self.markdownFiles()
        #expect(files.contains("README.md") && files.contains("docs/LOADERS.md") && files.contains("CHANGELOG.md"))
        var checked = 0
        for file in files {
            let text = try Self.read(file)
            let directory = URL(fileURLWithPath: Self.root + "/" + file).deletingLastPathComponent()
            for link in Self.links(text) {
                #expect(!link.hasPrefix("http:") && !link.hasPrefix("https:") && !link.hasPrefix("//"),
                        "\(file) links outside the repository: \(link)")
                guard !link.hasPrefix("http"), !link.hasPrefix("mailto:") else { continue }
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0]), anchor = parts.count > 1 ? String(parts[1]) : nil
                let target = path.isEmpty ? URL(fileURLWithPath: Self.root + "/" + file)
                    : directory.appendingPathComponent(path).standardized
                #expect(FileManager.default.fileExists(atPath: target.path), "\(file): \(link) does not exist")
                if let anchor, target.path.hasSuffix(".md"), FileManager.default.fileExists(atPath: target.path) {
                    let headings = Self.anchors(String(decoding: try Data(contentsOf: target), as: UTF8.self))
                    #expect(headings.contains(anchor), "\(file): \(link) names no heading")
                }
                checked += 1
            }
        }
        #expect(checked > 20)
    }

    @Test func theVersionIsTheOneInTheChangelogAndTheImage() throws {
        let version = LoaderService.version
        let parts = version.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil }, "not a semantic version: \(version)")
        // The newest released entry: `## [x.y.z] - date`, after `## [Unreleased]`.
        let changelog = try Self.read("CHANGELOG.md")
        let released = changelog.split(separator: "\n").first { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
        #expect(released?.hasPrefix("## [\(version)] - ") == true, "CHANGELOG.md's newest entry: \(released ?? "none")")
        let dockerfile = try Self.read("Dockerfile")
        #expect(dockerfile.contains("org.opencontainers.image.version=\"\(version)\""))
        #expect(try Self.read("LICENSE").contains("Apache License\n                           Version 2.0, January 2004"))
    }
}
