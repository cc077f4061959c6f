import BoardArchive
import Foundation
import Logging
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

@Suite struct KeywordPageTests {
    static let clock = ArchiveClock(now: SiteFixture.now, timeZone: SiteFixture.seoul)

    static func post(
        _ id: Int, _ title: String, writer: String = "김민준", contents: String = "", board: Int = 1, type: PostType = .normal, anonymous: Bool = false,
        minutes: Int = 0
    ) -> Post {
        Post(
            postId: id, title: title, boardId: board, writer: Writer(displayName: writer), contents: contents,
            createdDateTime: SiteFixture.now.addingTimeInterval(TimeInterval(-86_400 * 3 + minutes * 60)), postType: type, isAnonymous: anonymous)
    }

    static let boards = [Board(boardId: 1, displayName: "자유게시판", orderNo: 1), Board(boardId: 2, displayName: "공지", orderNo: 2)]

    static var posts: [Post] {
        var posts = [
            post(1, "서울은 맑음", contents: "오늘 서울 날씨"),
            post(2, "서울".decomposedStringWithCanonicalMapping + "시청 앞", minutes: 1),
            post(3, "ＳＥＯＵＬ full width", minutes: 2),
            post(4, "<img src=x onerror=alert(1)>", contents: "<script>alert(2)</script> 서울", minutes: 3),
            post(5, "익명 글", writer: "숨김", contents: "본문에만 서울이 있다", anonymous: true, minutes: 4),
            post(6, "공지: 서울 행사", board: 2, type: .notice, minutes: -100),
            post(7, "관계없는 글", contents: "부산", minutes: 5),
        ]
        for index in 0..<40 { posts.append(post(100 + index, "반복 키워드 \(index)", contents: "반복", minutes: 10 + index)) }
        return posts
    }

    func build(keywords: [String], top: Int = 2) throws -> ([String: Data], SearchPhase.Report) {
        let configuration = BuildConfiguration(now: SiteFixture.now, timeZone: SiteFixture.seoul, keywords: keywords, topKeywords: top)
        return try SearchPhaseHarness.run(boards: Self.boards, posts: Self.posts, configuration: configuration)
    }

    func html(_ files: [String: Data], _ path: String) throws -> String {
        try #require(files[path].flatMap { String(data: $0, encoding: .utf8) }, "missing \(path)")
    }

    @Test func keywordPageListsEveryMatchWithMarksInListingOrder() throws {
        let (files, _) = try build(keywords: ["서울"])
        let page = try html(files, "keywords/\(KeywordSelector.slug(for: "서울")).html")
        let ids = page.matches(of: #/data-post-id="(\d+)"/#).map { Int($0.output.1) ?? 0 }
        // Notice first, then newest first; NFD title and contents-only matches included; full-width ＳＥＯＵＬ is not 서울.
        #expect(ids == [6, 5, 4, 2, 1])
        #expect(page.contains("<mark>서울</mark>은 맑음"))
        #expect(page.contains("<mark>" + "서울".decomposedStringWithCanonicalMapping + "</mark>시청 앞"))
        #expect(page.contains(#"<p class="search-snippet">본문에만 <mark>서울</mark>이 있다</p>"#))
        #expect(page.contains(#"<td class="post-writer">익명</td>"#))
        #expect(page.contains(#"href="../posts/1.html""#))
        #expect(page.contains(#"data-post-type="notice""#))
        #expect(!page.contains("<script src=\"../assets/search.js\""))
    }

    @Test func hostileTitlesRenderAsText() throws {
        let (files, _) = try build(keywords: ["<img", "alert"])
        let page = try html(files, "keywords/\(KeywordSelector.slug(for: "<img")).html")
        #expect(page.contains("<mark>&lt;img</mark> src=x onerror=alert(1)&gt;"))
        let alert = try html(files, "keywords/\(KeywordSelector.slug(for: "alert")).html")
        #expect(alert.contains("&lt;img src=x onerror=<mark>alert</mark>(1)&gt;"))
        for (path, data) in files where path.hasSuffix(".html") {
            let text = String(decoding: data, as: UTF8.self)
            #expect(!text.contains("<img"), "\(path)")
            #expect(!text.contains("<script>"), "\(path)")
            #expect(text.matches(of: #/<[^>]*\son\w+=/#).isEmpty, "\(path)")
        }
    }

    @Test func keywordsArePagedThirtyAtATimeAndIndexed() throws {
        let (files, report) = try build(keywords: ["반복", "없는말"], top: 0)
        let slug = KeywordSelector.slug(for: "반복")
        let first = try html(files, "keywords/\(slug).html")
        let second = try html(files, "keywords/\(slug)-page-2.html")
        #expect(first.matches(of: #/data-post-id=/#).count == 30)
        #expect(second.matches(of: #/data-post-id=/#).count == 10)
        #expect(files["keywords/\(slug)-page-3.html"] == nil)
        #expect(first.contains(#"href="\#(slug)-page-2.html""#))
        #expect(second.contains(#"aria-current="page">1</a>"#))
        let empty = try html(files, "keywords/\(KeywordSelector.slug(for: "없는말")).html")
        #expect(empty.contains("이 키워드가 들어 있는 글이 없습니다."))
        let index = try html(files, "keywords/index.html")
        #expect(index.contains(#"<a href="\#(slug).html">반복</a> <span class="keyword-count">40건</span>"#))
        #expect(index.contains("없는말"))
        #expect(report.keywords == ["반복", "없는말"])
        #expect(report.keywordPages == 4)
        // The manifest tells the search page which queries have a keyword page.
        let reader = try SearchIndexReader(files: files.filter { $0.key.hasPrefix("search/") })
        #expect(reader.keywords.map(\.keyword) == ["반복", "없는말"])
        #expect(reader.keywords.first?.path == "keywords/\(slug).html")
        #expect(reader.keywords.first?.count == 40)
    }

    @Test func searchPageHasTheFormTargetsBoardsAndScript() throws {
        let (files, _) = try build(keywords: [])
        let page = try html(files, "search.html")
        #expect(page.contains(#"<script src="assets/search.js"></script>"#))
        #expect(page.contains(#"id="search-app""#) && page.contains(#"data-index="search/""#))
        for label in ["전체", "제목", "내용", "작성자", "자유게시판", "모든 게시판"] { #expect(page.contains(">\(label)</option>"), "\(label)") }
        #expect(page.contains(#"href="keywords/index.html""#))
        #expect(files.keys.contains("search/manifest.js"))
        #expect(files.keys.filter { $0.hasPrefix("search/") }.allSatisfy { $0.hasSuffix(".js") })
    }

    @Test func outputIsDeterministic() throws {
        let (first, _) = try build(keywords: ["서울"], top: 3)
        let (second, _) = try build(keywords: ["서울"], top: 3)
        #expect(first == second)
    }
}

@Suite struct KeywordSelectorTests {
    @Test(arguments: [
        ("서울은", "서울"), ("서울에서", "서울"), ("「서울」", "서울"), ("Server,", "server"), ("ＡＰＩ", "api"), ("회의", "회의"),
        ("나이", "나이"),
    ])
    func termsAreNormalisedAndStripped(word: String, term: String) {
        #expect(KeywordSelector.term(of: word) == term)
    }

    @Test(arguments: ["a", "12", "---", "|", "https://example.com", "그리고", "the", "😀😀", "javascript:alert(1", "onerror=alert(1)", "a<b"])
    func nonTermsAreDropped(word: String) {
        #expect(KeywordSelector.term(of: word) == nil)
    }

    @Test func searchLinksEncodeEveryReservedCharacter() {
        #expect(KeywordPageWriter.queryValue("서울 a:b&c=d?e/f#g") == "%EC%84%9C%EC%9A%B8%20a%3Ab%26c%3Dd%3Fe%2Ff%23g")
    }

    @Test func topTermsCountPostsNotOccurrences() {
        let date = Date(timeIntervalSince1970: 0)
        let documents = [
            SearchDocument(postId: 1, boardId: 1, boardName: "b", title: "서울 서울 서울", writer: "w", contents: "", createdDateTime: date),
            SearchDocument(postId: 2, boardId: 1, boardName: "b", title: "부산은", writer: "w", contents: "부산에서 회의", createdDateTime: date),
            SearchDocument(postId: 3, boardId: 1, boardName: "b", title: "부산", writer: "w", contents: "회의", createdDateTime: date),
        ]
        let top = KeywordSelector.topTerms(of: documents, count: 2)
        #expect(top.map(\.term) == ["부산", "회의"])
        #expect(top.map(\.posts) == [2, 2])
    }

    @Test func slugsAreAsciiDeterministicAndDistinct() {
        #expect(KeywordSelector.slug(for: "서울") == "k-ec849cec9ab8")
        #expect(KeywordSelector.slug(for: "ＳＥＯＵＬ") == KeywordSelector.slug(for: "seoul"))
        #expect(KeywordSelector.slug(for: "회의  자료") == KeywordSelector.slug(for: "회의 자료"))
        let long = String(repeating: "가", count: 50)
        #expect(KeywordSelector.slug(for: long).count < 100)
        #expect(KeywordSelector.slug(for: long) != KeywordSelector.slug(for: long + "나"))
        for keyword in ["서울", "<img", "a/b", "../x", long] {
            #expect(KeywordSelector.slug(for: keyword).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        }
    }
}
