import Testing
@testable import BoardArchive
@Test func placeholder() { #expect(BoardArchiveVersion.string == "0.1.0") }
