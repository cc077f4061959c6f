import Foundation

/// What the build remembers about one block of the search index, so that the next build can keep the block
/// without reading its posts again: `.boardarchive-cache/search/<block>.txt` in the site, with the block's
/// keyword terms in `<block>.terms` beside it.
///
/// The record lists the block's index files, its posts (ids and creation times, by position) and, per keyword
/// page slug, the positions that match the keyword. Lines: `v1`, `buckets <n>`, `files <path> …`, `ids <id>,…`,
/// `created <seconds>,…`, `hashes <hash>,…`, `boards <id>,…`, then `match <slug> <position>,…` per keyword. The terms file has `<count> <term>` lines
/// (terms are letters and digits only).
struct SearchBlockRecord: Sendable, Equatable {
    /// The block's id (`n3`, `t0`).
    var id: String
    /// The posting buckets of the block (in the manifest).
    var postingBuckets: Int
    /// The block's index files, relative to the site root.
    var files: [String]
    /// Post ids by position (oldest first).
    var postIds: [Int]
    /// Creation times (Unix seconds) by position.
    var created: [Int]
    /// Content hashes by position (what a keyword row's digest needs).
    var hashes: [String]
    /// Board ids by position.
    var boards: [Int]
    /// Keyword page slug → matching positions, ascending.
    var matches: [String: [Int]]

    /// The folder of the records, relative to the site root.
    static let folder = ".boardarchive-cache/search/"

    static func recordPath(of id: String) -> String { folder + id + ".txt" }
    static func termsPath(of id: String) -> String { folder + id + ".terms" }

    /// The record's bytes.
    func encoded() -> Data {
        var text = "v1\nbuckets \(postingBuckets)\nfiles " + files.joined(separator: " ") + "\n"
        text += "ids " + postIds.map(String.init).joined(separator: ",") + "\n"
        text += "created " + created.map(String.init).joined(separator: ",") + "\n"
        text += "hashes " + hashes.joined(separator: ",") + "\n"
        text += "boards " + boards.map(String.init).joined(separator: ",") + "\n"
        for slug in matches.keys.sorted() {
            text += "match \(slug) " + (matches[slug] ?? []).map(String.init).joined(separator: ",") + "\n"
        }
        return Data(text.utf8)
    }

    /// Parses a record written by ``encoded()``; nil when it is not one.
    init?(id: String, data: Data) {
        self.id = id
        postingBuckets = 0
        files = []
        postIds = []
        created = []
        hashes = []
        boards = []
        matches = [:]
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == "v1" else { return nil }
        func numbers(_ text: Substring) -> [Int] {
            // Parsed from the bytes: `split` and `Int(_:)` on substrings cost more than the rest of a rebuild.
            var result: [Int] = []
            var value = 0
            var negative = false
            var digits = 0
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    value = value &* 10 &+ Int(byte - UInt8(ascii: "0"))
                    digits += 1
                case UInt8(ascii: "-"): negative = true
                default:
                    if digits > 0 { result.append(negative ? -value : value) }
                    (value, negative, digits) = (0, false, 0)
                }
            }
            if digits > 0 { result.append(negative ? -value : value) }
            return result
        }
        for line in lines.dropFirst() {
            let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case "buckets": postingBuckets = Int(parts[1]) ?? 0
            case "files": files = parts[1].split(separator: " ").map(String.init)
            case "ids": postIds = numbers(parts[1])
            case "created": created = numbers(parts[1])
            case "hashes": hashes = parts[1].split(separator: ",").map(String.init)
            case "boards": boards = numbers(parts[1])
            case "match":
                let match = parts[1].split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
                if match.count == 2 { matches[String(match[0])] = numbers(match[1]) }
            default: continue
            }
        }
        guard postingBuckets > 0, postIds.count == created.count, postIds.count == hashes.count, postIds.count == boards.count else { return nil }
    }

    init(
        id: String, postingBuckets: Int, files: [String], postIds: [Int], created: [Int], hashes: [String], boards: [Int],
        matches: [String: [Int]] = [:]
    ) {
        self.id = id
        self.postingBuckets = postingBuckets
        self.files = files
        self.postIds = postIds
        self.created = created
        self.hashes = hashes
        self.boards = boards
        self.matches = matches
    }

    /// The terms file's bytes: `<count> <term>` lines, sorted by term.
    static func encodedTerms(_ terms: [String: Int]) -> Data {
        Data(terms.keys.sorted().map { "\(terms[$0] ?? 0) \($0)\n" }.joined().utf8)
    }

    /// Adds the counts of a terms file to `frequency`.
    static func addTerms(from data: Data, to frequency: inout [String: Int]) {
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            guard let space = line.firstIndex(of: " "), let count = Int(line[..<space]) else { continue }
            frequency[String(line[line.index(after: space)...]), default: 0] += count
        }
    }
}
