import BoardArchiveModel
import BoardArchiveStore
import Foundation

/// What the build remembers about one block of the search index, so that the next build can keep the block
/// without reading its posts again: `cache/search/<block>.txt` in the state folder (``BuildState``), with the block's
/// keyword terms in `<block>.terms` beside it.
///
/// The record lists the block's index files, its posts (ids and creation times, by position) and, per keyword
/// page slug, the positions that match the keyword. Lines: `v1`, `buckets <n>`, `base <digest>`, `files <path> …`,
/// `ids <id>,…`, `created <seconds>,…`, `hashes <hash>,…`, `boards <id>,…`, then `match <slug> <position>,…` per keyword. The terms file has `<count> <term>` lines
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
    /// Content hashes by position (what a keyword row's digest needs), as ``ContentHash/key(_:)`` keys: eight bytes a post
    /// instead of a 16-digit string on the heap, for every post of the archive while the keyword pages are made.
    var hashes: [UInt64]
    /// Board ids by position.
    var boards: [Int]
    /// Keyword page slug → matching positions, ascending.
    var matches: [String: [Int]]
    /// The search phase's digest base the block was encoded with (templates, strings, settings): the matches of a post
    /// whose id and content hash are unchanged carry over to the next build only when it is the same.
    var base: BuildDigest?

    /// The folder of the records, relative to the site root.
    static let folder = BuildState.cache + "search/"

    static func recordPath(of id: String) -> String { folder + id + ".txt" }
    static func termsPath(of id: String) -> String { folder + id + ".terms" }

    /// The record's bytes.
    func encoded() -> Data {
        var text = "v1\nbuckets \(postingBuckets)\n" + (base.map { "base \($0)\n" } ?? "") + "files " + files.joined(separator: " ") + "\n"
        text += "ids " + postIds.map(String.init).joined(separator: ",") + "\n"
        text += "created " + created.map(String.init).joined(separator: ",") + "\n"
        text += "hashes " + hashes.map(ContentHash.hex).joined(separator: ",") + "\n"
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
        base = nil
        // Parsed from the bytes: `String.split` walks grapheme clusters, which made reading the records of kept
        // blocks a tenth of a rebuild with nothing changed.
        let bytes = [UInt8](data)
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard let first = lines.first, first.elementsEqual("v1".utf8) else { return nil }
        func numbers(_ text: ArraySlice<UInt8>) -> [Int] {
            var result: [Int] = []
            var value = 0
            var negative = false
            var digits = 0
            for byte in text {
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
        // 16 lowercase hex digits each (how the store spells a hash), read here: `ContentHash.key` is generic over its
        // bytes and, called across modules, was not specialized (an iterator call a byte: 4 % of a 1M night's rebuild).
        // Any other text goes to it.
        func hashKeys(_ text: ArraySlice<UInt8>) -> [UInt64] {
            var result: [UInt64] = []
            var start = text.startIndex
            while start < text.endIndex {
                let end = text[start...].firstIndex(of: UInt8(ascii: ",")) ?? text.endIndex
                defer { start = end + 1 }
                guard end > start else { continue }
                var key: UInt64 = 0
                var index = start
                while index < end, end - start == 16 {
                    let byte = text[index]
                    if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                        key = key << 4 | UInt64(byte - UInt8(ascii: "0"))
                    } else if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f") {
                        key = key << 4 | UInt64(byte - UInt8(ascii: "a") + 10)
                    } else {
                        break
                    }
                    index += 1
                }
                result.append(index == end && end - start == 16 ? key : ContentHash.key(Array(text[start..<end])))
            }
            return result
        }
        func strings(_ text: ArraySlice<UInt8>, separator: UInt8) -> [String] {
            text.split(separator: separator).map { String(decoding: $0, as: UTF8.self) }
        }
        for line in lines.dropFirst() {
            guard let space = line.firstIndex(of: UInt8(ascii: " ")) else { continue }
            let value = line[(space + 1)...]
            switch String(decoding: line[..<space], as: UTF8.self) {
            case "buckets": postingBuckets = numbers(value).first ?? 0
            case "base": base = BuildDigest(hexBytes: value)
            case "files": files = strings(value, separator: UInt8(ascii: " "))
            case "ids": postIds = numbers(value)
            case "created": created = numbers(value)
            case "hashes": hashes = hashKeys(value)
            case "boards": boards = numbers(value)
            case "match":
                if let gap = value.firstIndex(of: UInt8(ascii: " ")) {
                    matches[String(decoding: value[..<gap], as: UTF8.self)] = numbers(value[(gap + 1)...])
                }
            default: continue
            }
        }
        guard postingBuckets > 0, postIds.count == created.count, postIds.count == hashes.count, postIds.count == boards.count else { return nil }
    }

    init(
        id: String, postingBuckets: Int, files: [String], postIds: [Int], created: [Int], hashes: [UInt64], boards: [Int],
        matches: [String: [Int]] = [:], base: BuildDigest? = nil
    ) {
        self.id = id
        self.postingBuckets = postingBuckets
        self.files = files
        self.postIds = postIds
        self.created = created
        self.hashes = hashes
        self.boards = boards
        self.matches = matches
        self.base = base
    }

    /// The terms file's bytes: `<count> <term>` lines, sorted by term.
    static func encodedTerms(_ terms: [String: Int]) -> Data {
        var bytes: [UInt8] = []
        for (term, count) in terms.sorted(by: { Bytes.utf8Precedes($0.key, $1.key) }) {
            bytes.append(contentsOf: String(count).utf8)
            bytes.append(UInt8(ascii: " "))
            bytes.append(contentsOf: term.utf8)
            bytes.append(UInt8(ascii: "\n"))
        }
        return Data(bytes)
    }

    /// Adds the counts of a terms file to `frequency` (read on bytes, as the records are).
    static func addTerms(from data: Data, to frequency: inout [String: Int]) {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                defer { start = end + 1 }
                var index = start
                var count = 0
                while index < end, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                    count = count &* 10 &+ Int(bytes[index] - UInt8(ascii: "0"))
                    index += 1
                }
                guard index > start, index < end, bytes[index] == UInt8(ascii: " ") else { continue }
                frequency[String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end]), as: UTF8.self), default: 0] += count
            }
        }
    }
}
