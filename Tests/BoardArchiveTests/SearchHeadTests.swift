import Foundation
import Testing

@testable import BoardArchiveModel
@testable import BoardArchiveSearch

/// Each post's head, `c<group>-<index>.js`: its metadata record and the first piece of its contents, so that a row whose
/// contents may hold a query word reads one file, not its group's metadata shard and then a contents shard.
@Suite struct SearchHeadTests {
    /// 20 posts (groups of 8): short ones, one without contents, one long enough for three pieces.
    static let documents: [SearchDocument] = (0..<20).map { index in
        let contents =
            switch index {
            case 5: ""
            case 9: "서울 회의 " + String(repeating: "자료를 정리했습니다. ", count: 400) + "부산역"
            default: "서울 회의 \(index)번 안건"
            }
        return SearchDocument(
            postId: 100 + index, boardId: 1, boardName: "b", title: index.isMultiple(of: 2) ? "회의 공지 \(index)" : "잡담 \(index)",
            writer: "w\(index % 3)", contents: contents, createdDateTime: Date(timeIntervalSince1970: TimeInterval(index * 60)))
    }
    static let files: [String: Data] = (try? SearchIndexBuilder().makeSearchIndex(for: documents)) ?? [:]

    /// Whether `path` is a block's metadata shard (`search/<block>/m<group>.js`), or a head or contents piece.
    static func isMeta(_ path: String) -> Bool { path.wholeMatch(of: #/search/[nt]\d+/m\d+\.js/#) != nil }
    static func isContents(_ path: String) -> Bool { path.wholeMatch(of: #/search/[nt]\d+/c\d+-\d+(-\d+)?\.js/#) != nil }

    static func json(_ path: String) throws -> Any {
        try SearchIndexReader.parse(path: path) { files[$0] }.json
    }

    @Test("every post has a head at its place holding its record and first piece; longer posts' pieces follow it")
    func aHeadHoldsTheRecordAndTheFirstPiece() throws {
        typealias Meta = SearchRecordLayout.Meta
        let reader = try SearchIndexReader(files: Self.files)
        let block = try #require(reader.blocks.first)
        for (position, document) in Self.documents.enumerated() {
            let (group, index) = position.quotientAndRemainder(dividingBy: 8)
            let head = try #require(Self.json("search/\(block.id)/c\(group)-\(index).js") as? [Any], "head of \(position)")
            let record = try #require(head.first as? [Any])
            let shard = try #require(Self.json("search/\(block.id)/m\(group).js") as? [[Any]])
            // The record in the head is the metadata shard's, and names the post.
            #expect(record.map { "\($0)" } == shard[index].map { "\($0)" })
            #expect(record[Meta.postId.rawValue] as? Int == document.postId)
            let count = try #require(record[Meta.contentsCount.rawValue] as? Int)
            var text = try #require(head[1] as? String)
            for piece in 1..<count {
                let payload = try #require(Self.json("search/\(block.id)/c\(group)-\(index)-\(piece).js") as? [Any])
                text += try #require(payload.first as? String)
            }
            #expect(text == document.contents, "contents of \(position)")
            #expect(Self.files["search/\(block.id)/c\(group)-\(index)-\(count).js"] == nil)
            #expect((position == 9) == (count > 2), "pieces of \(position): \(count)")
        }
    }

    @Test("a row found in its contents reads its head alone; a row found only in its title reads its metadata shard")
    func aContentsRowReadsItsHeadAlone() throws {
        let contentsRows = try SearchIndexReader(files: Self.files).search("안건", target: .contents, limit: 31, displayed: 30)
        #expect(contentsRows.hits.count == 18)
        // No metadata shard: every row's record and snippet come from its head.
        #expect(!contentsRows.loadedPaths.contains(where: Self.isMeta), "\(contentsRows.loadedPaths)")
        #expect(contentsRows.loadedPaths.filter(Self.isContents).count == 18)
        let titleRows = try SearchIndexReader(files: Self.files).search("공지", target: .title, limit: 31, displayed: 30)
        #expect(titleRows.hits.count == 10)
        #expect(!titleRows.loadedPaths.contains(where: Self.isContents), "\(titleRows.loadedPaths)")
        #expect(titleRows.loadedPaths.filter(Self.isMeta).count == 3)
        // A word only at the end of the long post reads its head and every piece after it, and no metadata shard.
        let late = try SearchIndexReader(files: Self.files).search("부산역", target: .all, limit: 31, displayed: 30)
        let reader = try SearchIndexReader(files: Self.files)
        #expect(try late.hits.map(reader.postId(of:)) == [109])
        let pieces = Self.files.keys.filter { $0.hasPrefix("search/n0/c1-1") }
        #expect(Set(late.loadedPaths.filter(Self.isContents)) == Set(pieces))
        #expect(!late.loadedPaths.contains(where: Self.isMeta), "\(late.loadedPaths)")
    }
}
