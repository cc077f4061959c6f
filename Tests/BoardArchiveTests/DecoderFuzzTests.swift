import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// Random JSON shapes through the page decoder: it never crashes, and a post it cannot keep is an error naming the
/// post and the field that was changed.
@Suite("Decoder: random JSON shapes")
struct DecoderFuzzTests {
    static let fields = [
        "postId", "title", "boardId", "boardDisplayName", "writer", "writer.displayName", "writer.emailAddress", "contents",
        "createdDateTime", "viewCount", "postType", "isNewPost", "hasInlineImage", "commentsCount", "attachmentsCount",
        "isAnonymous", "isOwner", "hasReply", "parentPostId", "hasAttachment",
    ]

    /// JSON values of every kind, hostile ones included.
    static let values = [
        "null", "true", "0", "-1", "7", "1.5", "-0.0", "1e3", "99999999999999999999", "9007199254740993", "\"\"", "\"글\"",
        "\"2024-01-01T00:00:00Z\"", "\"2024-13-01T00:00:00Z\"", #""a\u0000b""#, #""\ud800""#, #""\udc00x""#, "[]", "[1,\"a\"]", "{}",
        #"{"displayName":"w"}"#,
    ]

    static func validPost(id: Int) -> [String: String] {
        [
            "postId": "\(id)", "title": "\"제목\"", "boardId": "1", "writer": #"{"displayName":"홍길동","emailAddress":"a@b.c"}"#,
            "contents": "\"본문\"", "createdDateTime": "\"2024-01-01T00:00:00Z\"", "viewCount": "3", "postType": "\"normal\"",
        ]
    }

    /// The item's JSON text, with `field` (dotted for the writer) set to `value`, or removed when `value` is nil.
    static func item(id: Int, field: String, value: String?) -> String {
        var post = validPost(id: id)
        if field.hasPrefix("writer.") {
            let key = String(field.dropFirst("writer.".count))
            var writer = ["displayName": "\"홍길동\""]
            writer[key] = value
            post["writer"] = "{" + writer.map { "\"\($0.key)\":\($0.value)" }.sorted().joined(separator: ",") + "}"
        } else {
            post[field] = value
        }
        return "{" + post.map { "\"\($0.key)\":\($0.value)" }.sorted().joined(separator: ",") + "}"
    }

    @Test(arguments: 0..<8)
    func randomFieldValuesNeverCrashAndAlwaysNameTheField(round: Int) throws {
        var random = SearchTestCorpus.Random(state: 0xDEC0_DE00 + UInt64(round))
        var failures = 0
        for index in 0..<120 {
            let field = random.pick(Self.fields)
            let value: String? = random.chance(10) ? nil : random.pick(Self.values)
            let id = 100 + index
            let body = #"{"value":[\#(Self.item(id: id, field: field, value: value))],"count":1,"offset":0,"limit":30,"total":1}"#
            do {
                let page = try EnvelopeDecoder.decode(Post.self, from: Data(body.utf8), request: "GET /t", board: 1, offset: 0)
                #expect(page.items.count == 1)
            } catch let error as CrawlError {
                failures += 1
                guard case .undecodableItem(let board, let offset, let post, let named, _) = error.reason else {
                    Issue.record("\(field)=\(value ?? "absent"): not an item error: \(error.localizedDescription)")
                    continue
                }
                #expect(board == 1 && offset == 0)
                let root = field.split(separator: ".").first.map(String.init) ?? field
                #expect(named.hasPrefix(root), "\(field)=\(value ?? "absent"): the error names `\(named)`: \(error.localizedDescription)")
                if field != "postId" { #expect(post == id, "\(field)=\(value ?? "absent"): no post id in \(error.localizedDescription)") }
            }
        }
        #expect(failures > 10, "the random values must break some posts")
    }

    @Test(arguments: [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80]] as [[UInt8]])
    func invalidUTF8InAStringNamesThePostAndTheField(bytes: [UInt8]) throws {
        var body = Data(#"{"value":[{"postId":42,"boardId":1,"title":"a"#.utf8)
        body.append(contentsOf: bytes)
        body.append(contentsOf: Data(#"b","writer":{"displayName":"w"},"createdDateTime":"2024-01-01T00:00:00Z"}],"#.utf8))
        body.append(contentsOf: Data(#""count":1,"offset":0,"limit":30,"total":1}"#.utf8))
        let error = try #require(throws: CrawlError.self) {
            try EnvelopeDecoder.decode(Post.self, from: body, request: "GET /t", board: 1, offset: 0)
        }
        #expect(
            error.localizedDescription
                == "GET /t returned an item that cannot be read at board 1, offset 0 (post 42), field `title`: "
                + "the text is not valid Unicode (invalid UTF-8 or a lone surrogate).")
    }
}
