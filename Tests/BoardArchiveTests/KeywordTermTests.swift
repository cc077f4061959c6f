import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

@Suite struct KeywordTermTests {
    @Test func theByteFastPathFindsTheTermsEveryWordGives() {
        var seed: UInt64 = 99
        let words = [
            "서울은", "서울에서", "Seoul,", "(swift)", "release-notes", "v2", "2024", "the", "THE", "그리고", "회의를", "가가", "가",
            "x1", "!!", "a.b", "é", "\u{1}ab", "ab\u{1}", "ａｂ", "서울\u{A0}시청", "foo\u{3000}bar", "naïve", "…end", "“quoted”",
        ]
        for round in 0..<300 {
            var text = ""
            for _ in 0..<(round % 40) {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let pick = Int((seed >> 33) % UInt64(words.count + 4))
                text += pick < words.count ? words[pick] : SearchHighlighterTests.randomText(&seed, length: 3)
                text += ["", " ", "\n", "\t", "  "][Int((seed >> 20) % 5)]
            }
            var fast = Set<String>()
            var slow = Set<String>()
            KeywordSelector.addTerms(of: text, to: &fast)
            KeywordSelector.addTerms(of: text, to: &slow, byteFastPath: false)
            #expect(fast == slow, "text \(Array(text.unicodeScalars))")
        }
    }

    /// The fast path passes a word to the set of stop terms only when the stop-term filter has its hash's bit: every
    /// stop word, in any case, with a particle or punctuation around it, must still be dropped.
    @Test func everyStopWordIsDroppedByTheByteFastPath() {
        for word in KeywordSelector.stopWords {
            for text in [word, word.uppercased(), "(\(word))", word + ",", word.unicodeScalars.allSatisfy(\.isASCII) ? word : word + "은"] {
                var fast = Set<String>()
                var slow = Set<String>()
                KeywordSelector.addTerms(of: text, to: &fast)
                KeywordSelector.addTerms(of: text, to: &slow, byteFastPath: false)
                #expect(fast == slow, "\(text)")
                #expect(!fast.contains(word), "\(text)")
            }
        }
    }

    /// `frequency(of:)` counts terms in one byte-keyed table: it must give what a set of each document's terms gives.
    @Test func termCountsMatchCountingEachDocumentsSetOfTerms() {
        var seed: UInt64 = 7
        let words = ["서울은", "서울", "회의를", "회의실", "Seoul", "seoul,", "release-notes", "naïve", "그리고", "v2", "ab", "가"]
        var documents: [SearchDocument] = []
        for id in 0..<400 {
            var title = ""
            var contents = ""
            for index in 0..<(id % 23) {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let word =
                    Int((seed >> 33) % UInt64(words.count + 3)) < words.count ? words[Int((seed >> 33) % UInt64(words.count))] : "w\(seed % 5_000)"
                if index % 4 == 0 { title += word + " " } else { contents += word + "\n" }
            }
            documents.append(
                SearchDocument(postId: id, boardId: 1, boardName: "b", title: title, writer: "w", contents: contents, createdDateTime: Date()))
        }
        var expected: [String: Int] = [:]
        for document in documents {
            var terms = Set<String>()
            KeywordSelector.addTerms(of: document.title, to: &terms, byteFastPath: false)
            KeywordSelector.addTerms(of: document.contents, to: &terms, byteFastPath: false)
            for term in terms { expected[term, default: 0] += 1 }
        }
        #expect(expected.count > 600, "the corpus should hold more terms than the table starts with room for (512)")
        #expect(KeywordSelector.frequency(of: documents) == expected)
    }
}
