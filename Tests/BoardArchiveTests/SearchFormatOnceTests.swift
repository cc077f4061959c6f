import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// The search index's format is declared once, in Swift: `search.js` takes every value of the manifest's `format` and
/// `layout` objects from the manifest and spells none of them itself.
@Suite("Search format defined once")
struct SearchFormatOnceTests {
    static let script = SiteFixture.templatesDirectory.appendingPathComponent("assets/search.js")

    /// Every leaf of `json` with its path (`format.shards.meta`).
    static func leaves(_ json: SearchJSON, path: String) -> [(path: String, value: SearchJSON)] {
        switch json {
        case .int, .string: return [(path, json)]
        case .array(let items): return items.enumerated().flatMap { leaves($0.element, path: "\(path)[\($0.offset)]") }
        case .object(let pairs): return pairs.flatMap { leaves($0.1, path: "\(path).\($0.0)") }
        }
    }

    /// The ways JavaScript source could spell `value` as a literal: a quoted string, or a number of three digits or more in
    /// decimal or hexadecimal (smaller numbers are everywhere in any program and say nothing).
    static func spellings(of value: SearchJSON) -> [String] {
        switch value {
        case .string(let text): return ["'\(text)'", "\"\(text)\""]
        case .int(let number) where number >= 100: return ["\(number)", "0x" + String(number, radix: 16)]
        default: return []
        }
    }

    /// The literal spellings of the format's values found in `source` (case-insensitive for hexadecimal).
    static func duplicates(in source: String) -> [String] {
        let declared = leaves(SearchIndexFormat.manifestObject, path: "format") + leaves(SearchRecordLayout.manifestObject, path: "layout")
        var found: [String] = []
        let lowered = source.lowercased()
        for (path, value) in declared {
            for spelling in spellings(of: value) where spelling.hasPrefix("0x") ? lowered.contains(spelling) : source.contains(spelling) {
                found.append("\(path) as \(spelling)")
            }
        }
        // The normalisation's whitespace table: JavaScript's own `\s`, never a list of its code points.
        for scalar: UInt32 in [0x1680, 0x2028, 0x205F, 0x3000, 0xFEFF] where Unicode.Scalar(scalar).map(TextNormalizer.isWhitespace) == true {
            let escape = "\\u" + String(scalar, radix: 16)
            if lowered.contains(escape) { found.append("whitespace as \(escape)") }
        }
        return found
    }

    @Test("search.js spells no value of the manifest's format or layout")
    func noConstantOnBothSides() throws {
        let source = try String(contentsOf: Self.script, encoding: .utf8)
        #expect(Self.duplicates(in: source) == [])
        // It reads them from the manifest instead.
        #expect(source.contains("FORMAT = m.format") && source.contains("LAYOUT = m.layout"))
    }

    @Test("the check finds each kind of duplicate")
    func theCheckCanFail() {
        let planted = """
            var hash = 0x811C9DC5, alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_';
            var id = block + "/m" + group, budget = 112000, space = /[\\u3000]/;
            """
        #expect(
            Self.duplicates(in: planted).sorted() == [
                "format.alphabet as '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_'", "format.hash[0] as 0x811c9dc5",
                "format.shards.meta as \"/m\"", "layout.budget as 112000", "whitespace as \\u3000",
            ])
    }

    @Test("the manifest carries the format, and its values are the ones the builder writes with")
    func theManifestCarriesTheFormat() {
        let manifest = SearchIndexBuilder.manifest(
            configuration: SearchIndexConfiguration(), blocks: [.init(id: "n0", count: 1, postingBuckets: 1)], total: 1, directoryBuckets: 1,
            boards: [1: "b"], keywords: [])
        let text = String(decoding: manifest, as: UTF8.self)
        #expect(text.contains("\"format\":" + SearchIndexFormat.manifestObject.text))
        #expect(SearchIndexFormat.blockNumber(SearchIndexFormat.blockId(notice: true, index: 3)) == 7)
        #expect(SearchIndexFormat.blockNumber(SearchIndexFormat.blockId(notice: false, index: 3)) == 6)
        #expect(PostingCodec.decode(PostingCodec.encode([0, 1, 2, 3, 4, 5, 6])) == [0, 1, 2, 3, 4, 5, 6])
        #expect(PostingCodec.encode([0, 1, 2, 3, 4, 5, 6]).hasPrefix(SearchIndexFormat.bitmapMarker))
        #expect(PostingCodec.decode(PostingCodec.encode([3, 4_000])) == [3, 4_000])
    }
}
