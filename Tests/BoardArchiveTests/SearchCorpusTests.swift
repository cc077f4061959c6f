import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// A seeded generator of Korean and English posts for the search tests, independent of the fixture dataset.
struct SearchTestCorpus {
    /// SplitMix64: small, fast and the same on every platform.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ range: Range<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
        mutating func chance(_ percent: Int) -> Bool { int(0..<100) < percent }
        mutating func pick<T>(_ items: [T]) -> T { items[int(0..<items.count)] }
    }

    static let korean = """
        서울 서울시청 부산 대구 인천 광주 대전 울산 세종 제주 학교 학생 선생님 수업 시험 과제 도서관 회의 회의실 공지 안내 \
        일정 변경 마감 신청 접수 결과 발표 축하 감사 부탁 질문 답변 문의 확인 요청 승인 보고서 자료 파일 첨부 사진 영상 \
        점심 저녁 회식 주차 주차장 출근 퇴근 휴가 연차 병가 출장 교육 세미나 워크숍 프로젝트 개발 서버 배포 장애 복구 \
        보안 업데이트 점검 네트워크 데이터 분석 설계 검토 테스트 품질 고객 계약 예산 비용 구매 견적 주문 배송 반품 환불 \
        행사 이벤트 모집 채용 면접 합격 동아리 모임 운동 축구 야구 농구 등산 여행 맛집 카페 커피 날씨 비 눈 바람 봄 \
        여름 가을 겨울 월요일 금요일 주말 오늘 내일 어제 다음주 지난주 한국 대한민국 서울역 강남 판교 사무실 건물 엘리베이터
        """.split(separator: " ").map(String.init)
    static let particles = ["", "", "", "은", "는", "이", "가", "을", "를", "에", "에서", "의", "도", "로", "으로", "까지", "부터"]
    static let english = """
        Server Deploy Release Update Meeting Report Swift Linux Docker Kubernetes API JSON Search Index Archive Board Notice \
        Question Answer Bug Fix Feature Test Review Build Cache Network Database Backup Restore Security Login Password Error \
        Warning Seoul Busan Coffee Lunch Weekend Monday Friday project team office
        """.split(separator: " ").map(String.init)
    static let writers = ["김민준", "이서연", "박지훈", "최수아", "정우진", "강하은", "조현우", "윤지민", "Alice Kim", "bob.lee", "ＡＤＭＩＮ", "관리자"]
    static let boards = [(1, "공지사항"), (2, "자유게시판"), (3, "질문과 답변"), (4, "개발팀"), (5, "Photo & Travel")]
    static let extras = ["😀", "👍🏻", "🇰🇷", "👨‍👩‍👧", "Ｓｅｏｕｌ", "ＡＢＣ", "①", "™", "ﬁle", "café", "cafe\u{301}", "ΣΑΣ", "İstanbul", "ß", "(주)", "㈜"]
    /// Names every JavaScript object inherits (`constructor`, `__proto__`, …): as words and queries they catch a plain
    /// object used as a lookup table in search.js, where `seen["constructor"]` is already truthy.
    static let objectKeys = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "prototype", "__defineGetter__"]

    /// A word as it may appear in text: Korean with a particle, English in random case, or an odd character.
    static func word(_ random: inout Random) -> String {
        switch random.int(0..<20) {
        case 0..<13: return random.pick(korean) + random.pick(particles)
        case 13..<18:
            let word = random.pick(english)
            switch random.int(0..<4) {
            case 0: return word.uppercased()
            case 1: return word.lowercased()
            default: return word
            }
        case 18: return random.chance(25) ? random.pick(objectKeys) : random.pick(extras)
        default:
            // NFD Hangul, as text typed on some systems arrives.
            return random.pick(korean).decomposedStringWithCanonicalMapping
        }
    }

    static func sentence(_ random: inout Random, words: Range<Int>) -> String {
        (0..<random.int(words)).map { _ in word(&random) }.joined(separator: " ")
    }

    /// `count` posts with dates over two years (some equal), about 2 % notices and 10 % replies.
    static func documents(count: Int, seed: UInt64, contentsWords: Range<Int> = 10..<90) -> [SearchDocument] {
        var random = Random(state: seed)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        var documents: [SearchDocument] = []
        documents.reserveCapacity(count)
        for index in 0..<count {
            let board = random.pick(boards)
            let notice = random.chance(2)
            let reply = !notice && random.chance(10)
            var title = sentence(&random, words: 1..<7)
            if random.chance(1) { title = "<img src=x onerror=alert(1)> " + title }
            let lines = (0..<random.int(1..<5)).map { _ in sentence(&random, words: contentsWords) }
            let writer = random.chance(8) ? "익명" : random.pick(writers)
            let seconds = random.chance(5) ? 0 : random.int(0..<63_072_000)
            documents.append(
                SearchDocument(
                    postId: 1_000 + index * 3 + random.int(0..<3), boardId: board.0, boardName: board.1, title: title, writer: writer,
                    contents: random.chance(3) ? "" : lines.joined(separator: "\n"), createdDateTime: start.addingTimeInterval(TimeInterval(seconds)),
                    postType: notice ? .notice : (reply ? .reply : .normal), viewCount: random.int(0..<5_000),
                    commentsCount: random.int(0..<40), attachmentsCount: random.chance(20) ? random.int(1..<4) : 0, hasParent: reply))
        }
        return documents
    }

    /// Queries of every kind: whole words, substrings (1–4 code points), several words, odd forms, misses.
    static func queries(count: Int, seed: UInt64, from documents: [SearchDocument]) -> [String] {
        var random = Random(state: seed)
        var queries: [String] =
            [
                "서울", "울", "서울시", "ＳＥＯＵＬ", "seoul", "서울".decomposedStringWithCanonicalMapping, "café", "cafe", "e\u{301}",
                "ΣΑΣ", "σας", "👍", "👨", "(주)", "주", "ﬁ", "fi", "1", "익명", "<img", "onerror=alert(1)>", "없는단어", "zzzq", "회의 서울", "a b c", "²",
            ] + objectKeys + ["constructor 서울", "서울 __proto__", "__proto__ constructor", "CONSTRUCTOR", "proto", "__"]
        while queries.count < count {
            let document = random.pick(documents)
            let source = random.pick([document.title, document.writer, document.contents, document.contents])
            let scalars = Array(source.unicodeScalars)
            guard !scalars.isEmpty else { continue }
            switch random.int(0..<6) {
            case 0, 1:
                let length = random.int(1..<5)
                let from = random.int(0..<scalars.count)
                queries.append(String(String.UnicodeScalarView(scalars[from..<min(scalars.count, from + length)])))
            case 2: queries.append(random.pick(korean))
            case 3: queries.append(random.pick(korean) + " " + random.pick(korean))
            case 4: queries.append(random.pick(english).uppercased())
            default: queries.append(word(&random) + (random.chance(30) ? " " + word(&random) : ""))
            }
        }
        return queries
    }
}

/// The brute-force oracle of the search notes, over scalars: every query word in some field of the target.
struct SearchOracle {
    let documents: [SearchDocument]
    private let normalized: [[Data]]

    init(documents: [SearchDocument]) {
        self.documents = documents
        normalized = documents.map { document in
            [document.title, document.contents, document.writer].map { Data(TextNormalizer.normalize($0).utf8) }
        }
    }

    /// The post ids matching `query`, in listing order.
    func search(_ query: String, target: SearchTarget, boardId: Int? = nil) -> [Int] {
        let words = TextNormalizer.normalizedQueryWords(query).map { Data($0.utf8) }
        guard !words.isEmpty else { return [] }
        let fields = target.fields.map(\.rawValue)
        var found: [SearchDocument] = []
        for (index, document) in documents.enumerated() where boardId == nil || document.boardId == boardId {
            let texts = normalized[index]
            if words.allSatisfy({ word in fields.contains { Self.contains(texts[$0], word) } }) { found.append(document) }
        }
        return found.sorted(by: SearchDocument.listingPrecedes).map(\.postId)
    }

    static func contains(_ haystack: Data, _ needle: Data) -> Bool {
        haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { pin in
                guard let hayBase = hay.baseAddress, let pinBase = pin.baseAddress, pin.count > 0 else { return pin.isEmpty }
                guard hay.count >= pin.count else { return false }
                let first = Int32(pin[0])
                var offset = 0
                let last = hay.count - pin.count
                while offset <= last {
                    guard let found = memchr(hayBase + offset, first, last - offset + 1) else { return false }
                    let index = hayBase.distance(to: UnsafeRawPointer(found))
                    if memcmp(hayBase + index, pinBase, pin.count) == 0 { return true }
                    offset = index + 1
                }
                return false
            }
        }
    }
}

@Suite struct SearchCorpusTests {
    @Test func corpusIsDeterministicAndVaried() {
        let first = SearchTestCorpus.documents(count: 300, seed: 7)
        #expect(first == SearchTestCorpus.documents(count: 300, seed: 7))
        #expect(first != SearchTestCorpus.documents(count: 300, seed: 8))
        #expect(first.contains { $0.postType == .notice })
        #expect(first.contains { $0.writer == "익명" })
        #expect(Set(first.map(\.postId)).count == first.count)
        #expect(first.contains { document in SearchTestCorpus.objectKeys.contains { document.contents.contains($0) } })
    }

    @Test func oracleUsesScalarSemantics() {
        let document = SearchDocument(postId: 1, boardId: 1, boardName: "b", title: "Café 서울시청", writer: "익명", contents: "", createdDateTime: Date())
        let oracle = SearchOracle(documents: [document])
        #expect(oracle.search("cafe", target: .title) == [])
        #expect(oracle.search("café", target: .title) == [1])
        #expect(oracle.search("울시", target: .all) == [1])
        #expect(oracle.search("울시", target: .writer) == [])
    }
}
