import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

@Suite("Model decoding")
struct ModelDecodingTests {
    /// The sample post of the contract (docs/board-api.md), verbatim.
    static let contractPost = """
        {
          "postId": 1593171,
          "title": "공지",
          "boardId": 28478,
          "boardDisplayName": "테스트 게시판",
          "writer": { "displayName": "홍길동", "emailAddress": "writer@example.com" },
          "contents": "공지게시글입니다.\\n\\n안녕하세요. 만나서 반갑습니다.",
          "createdDateTime": "2023-06-30T06:15:08Z",
          "viewCount": 11,
          "postType": "notice",
          "isNewPost": false,
          "hasInlineImage": false,
          "commentsCount": 0,
          "attachmentsCount": 0,
          "isAnonymous": false,
          "isOwner": false,
          "hasReply": false,
          "parentPostId": null
        }
        """

    static let contractBoard = """
        {
          "boardId": 28478,
          "displayName": "테스트 게시판",
          "boardType": "normal",
          "isFavorite": false,
          "hasNewPost": true,
          "orderNo": 1,
          "capability": { "writable": true, "manageable": true }
        }
        """

    @Test func contractPostDecodesEveryField() throws {
        let post = try JSONDecoder().decode(Post.self, from: Data(Self.contractPost.utf8))
        #expect(post.postId == 1_593_171)
        #expect(post.title == "공지")
        #expect(post.boardId == 28_478)
        #expect(post.boardDisplayName == "테스트 게시판")
        #expect(post.writer == Writer(displayName: "홍길동", emailAddress: "writer@example.com"))
        #expect(post.contents == "공지게시글입니다.\n\n안녕하세요. 만나서 반갑습니다.")
        #expect(ArchiveDate.format(post.createdDateTime) == "2023-06-30T06:15:08Z")
        #expect(post.createdDateTime.timeIntervalSince1970 == 1_688_105_708)
        #expect(post.viewCount == 11)
        #expect(post.postType == .notice)
        #expect(post.unknownPostType == nil)
        #expect(post.isNewPost == false)
        #expect(post.hasInlineImage == false)
        #expect(post.commentsCount == 0)
        #expect(post.attachmentsCount == 0)
        #expect(post.isAnonymous == false)
        #expect(post.isOwner == false)
        #expect(post.hasReply == false)
        #expect(post.parentPostId == nil)
    }

    @Test func contractBoardDecodesEveryField() throws {
        let board = try JSONDecoder().decode(Board.self, from: Data(Self.contractBoard.utf8))
        #expect(
            board
                == Board(
                    boardId: 28_478, displayName: "테스트 게시판", boardType: "normal", isFavorite: false, hasNewPost: true, orderNo: 1,
                    capability: .init(writable: true, manageable: true)))
    }

    @Test func variant2024KeysAreReadAndUnknownKeysIgnored() throws {
        let json = """
            {"postId": 5, "title": "t", "boardId": 1, "writer": {"displayName": "w", "profileImage": "https://x/p.png", "rank": 3},
             "createdDateTime": "2024-01-02T03:04:05Z", "postType": "reply", "parentPostId": 4, "hasAttachment": true,
             "somethingNew": {"nested": [1, 2]}}
            """
        let post = try JSONDecoder().decode(Post.self, from: Data(json.utf8))
        #expect(post.writer.profileImage == "https://x/p.png")
        #expect(post.hasAttachment == true)
        #expect(post.postType == .reply)
        #expect(post.parentPostId == 4)
        // Optional keys absent: documented defaults.
        #expect(post.contents == "")
        #expect(post.viewCount == 0)
        #expect(post.commentsCount == 0)
        #expect(post.isAnonymous == false)
        #expect(post.boardDisplayName == nil)
    }

    @Test func unknownPostTypeReadsAsNormalAndKeepsTheRawValue() throws {
        let json =
            #"{"postId": 1, "title": "t", "boardId": 1, "writer": {"displayName": "w"}, "createdDateTime": "2024-01-02T03:04:05Z", "postType": "poll"}"#
        let post = try JSONDecoder().decode(Post.self, from: Data(json.utf8))
        #expect(post.postType == .normal)
        #expect(post.unknownPostType == "poll")
        // Re-encoding keeps the value the API sent.
        let again = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(post)) as? [String: Any]
        #expect(again?["postType"] as? String == "poll")
    }

    @Test(arguments: [
        ("2023-06-30T06:15:08Z", 1_688_105_708.0),
        ("1970-01-01T00:00:00Z", 0.0),
        ("2024-02-29T23:59:59Z", 1_709_251_199.0),
        ("1969-12-31T23:59:59Z", -1.0),
    ])
    func strictDatesParse(text: String, seconds: Double) throws {
        let date = try #require(ArchiveDate.parse(text))
        #expect(date.timeIntervalSince1970 == seconds)
        #expect(ArchiveDate.format(date) == text)
    }

    @Test(arguments: [
        "2023-06-30T06:15:08.123Z", "2023-06-30T06:15:08+09:00", "2023-06-30 06:15:08Z", "2023-06-30T06:15:08", "2023-02-29T00:00:00Z",
        "2023-13-01T00:00:00Z", "2023-06-30T24:00:00Z", "2023-06-30T06:60:00Z", "", "２０２３-06-30T06:15:08Z",
    ])
    func looseDatesAreRejected(text: String) {
        #expect(ArchiveDate.parse(text) == nil)
    }

    @Test func anUndecodableItemNamesBoardOffsetAndField() throws {
        let body = """
            {"value": [\(Self.contractPost), {"postId": 2, "title": "x", "boardId": 7, "writer": {"displayName": "w"},
              "createdDateTime": "30/06/2023"}], "count": 2, "offset": 60, "limit": 30, "total": 62}
            """
        #expect {
            _ = try EnvelopeDecoder.decode(Post.self, from: Data(body.utf8), request: "GET /boards/7/posts?offset=60&limit=30", board: 7, offset: 60)
        } throws: { error in
            guard let error = error as? CrawlError, case .undecodableItem(let board, let offset, let post, let field, _) = error.reason else {
                return false
            }
            let message = error.localizedDescription
            return board == 7 && offset == 61 && post == 2 && field == "createdDateTime" && message.contains("board 7, offset 61 (post 2)")
                && message.contains("createdDateTime")
        }
    }

    @Test func aMissingEnvelopeKeyIsNamed() throws {
        let body = #"{"value": [], "count": 0, "offset": 0, "limit": 30}"#
        #expect {
            _ = try EnvelopeDecoder.decode(Post.self, from: Data(body.utf8), request: "GET /boards/1/posts", board: 1, offset: 0)
        } throws: { error in
            guard let error = error as? CrawlError, case .undecodableBody(let detail) = error.reason else { return false }
            return detail.contains("total")
        }
    }

    @Test func rawJSONKeepsUnknownKeysWithSortedKeys() throws {
        let body = """
            {"value": [{"postId": 9, "title": "t", "boardId": 1, "writer": {"displayName": "w"}, "createdDateTime": "2024-01-02T03:04:05Z",
              "zeta": true, "alpha": 1.5}], "count": 1, "offset": 0, "limit": 30, "total": 1}
            """
        let page = try EnvelopeDecoder.decode(Post.self, from: Data(body.utf8), request: "GET", board: 1, offset: 0)
        let json = try #require(page.items.first?.json)
        #expect(json.hasPrefix(#"{"alpha":1.5,"boardId":1"#))
        #expect(json.contains(#""zeta":true"#))
    }
}
