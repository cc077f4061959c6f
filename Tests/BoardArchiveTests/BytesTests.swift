import Testing

@testable import BoardArchive

@Suite struct BytesTests {
    @Test(arguments: [
        ("서버실", "서버", 0, 0 as Int?), ("회의 서버", "서버", 0, 7), ("서버", "서버실", 0, nil), ("abcabc", "bc", 2, 4), ("abc", "c", 3, nil),
        ("abc", "", 1, 1), ("aab", "ab", 0, 1),
    ])
    func firstIndexFindsTheFirstOccurrenceAtOrAfterStart(haystack: String, needle: String, start: Int, expected: Int?) {
        #expect(Bytes.firstIndex(of: Array(needle.utf8), in: Array(haystack.utf8), from: start) == expected)
    }

    @Test func fnv1aHasItsPublishedValues() {
        #expect(Bytes.fnv1a([]) == 0xCBF2_9CE4_8422_2325)
        #expect(Bytes.fnv1a(Array("a".utf8)) == 0xAF63_DC4C_8601_EC8C)
        #expect(Bytes.fnv1a(Array("foobar".utf8)) == 0x8594_4171_F739_67E8)
    }
}
