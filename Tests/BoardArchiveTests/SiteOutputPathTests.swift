import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

@Suite("Output paths and manifest digests, read from bytes")
struct SiteOutputPathTests {
    /// The rule as it reads: no leading `/`, and no component that is empty, `.` or `..`.
    static func isSafe(_ path: String) -> Bool {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        return !path.hasPrefix("/") && !components.isEmpty && !components.contains { $0.isEmpty || $0 == "." || $0 == ".." }
    }

    @Test func pathsAreCheckedAsTheRuleReads() {
        let pieces = ["a", "posts", "1.html", ".", "..", "...", ".x", "x.", "/", "//", "", "é", "k-ec84"]
        var seed: UInt64 = 17
        var paths = ["", "/", "a", "a/b", "a//b", "/a", "a/", ".", "..", "a/./b", "a/../b", "a/.../b", "../a", "a/.."]
        for _ in 0..<2_000 {
            var path = ""
            for _ in 0..<4 {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                path += pieces[Int((seed >> 33) % UInt64(pieces.count))]
            }
            paths.append(path)
        }
        let staging = URL(fileURLWithPath: "/tmp/staging")
        for path in paths {
            let accepted = (try? SiteOutput.checkPath(path, in: staging)) != nil
            #expect(accepted == Self.isSafe(path), "path \(path)")
        }
    }

    @Test func manifestDigestsReadBackFromTheirHex() {
        var seed: UInt64 = 23
        for _ in 0..<500 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var digest = BuildDigest()
            digest.add("path \(seed)")
            #expect(BuildDigest(hexBytes: Array(digest.description.utf8)) == digest)
            #expect(BuildDigest(hexBytes: Array(digest.description.uppercased().utf8)) == digest)
            var bytes: [UInt8] = []
            digest.appendHex(to: &bytes)
            #expect(bytes == Array((ContentHash.hex(digest.high) + ContentHash.hex(digest.low)).utf8))
            #expect(digest.description == String(decoding: bytes, as: UTF8.self))
        }
        #expect(BuildDigest(hexBytes: Array("0123".utf8)) == nil)
        #expect(BuildDigest(hexBytes: Array(String(repeating: "g", count: 32).utf8)) == nil)
    }
}

@Suite("Search block records, read from bytes")
struct SearchBlockRecordTests {
    @Test func aRecordReadsBackAsWritten() throws {
        var seed: UInt64 = 29
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        for round in 0..<100 {
            let count = round % 7 == 0 ? 0 : next(50) + 1
            let record = SearchBlockRecord(
                id: "n\(round)", postingBuckets: next(64) + 1, files: (0..<next(5)).map { "search/n\(round)/p\($0).js" },
                postIds: (0..<count).map { _ in next(1_000_000_000) }, created: (0..<count).map { _ in next(2_000_000_000) - 100_000_000 },
                hashes: (0..<count).map { _ in UInt64(next(1 << 30)) << 34 | UInt64(next(1 << 30)) }, boards: (0..<count).map { _ in next(30) },
                matches: Dictionary(uniqueKeysWithValues: (0..<next(4)).map { ("k-\($0)", (0..<next(5)).map { _ in next(count + 1) }) }))
            #expect(SearchBlockRecord(id: record.id, data: record.encoded()) == record)
        }
        #expect(SearchBlockRecord(id: "n0", data: Data("v2\n".utf8)) == nil)
    }

    @Test func hashesReadAsTheStoresHexOrAsAHashOfOtherText() throws {
        let others = ["xyz", "0123456789ABCDEF", "0123456789abcdeg", "0123456789abcdef0", "00000000000000f"]
        let text =
            "v1\nbuckets 4\nfiles \nids 1,2,3,4,5,6,7\ncreated 1,2,3,4,5,6,7\nboards 1,1,1,1,1,1,1\n"
            + "hashes 00000000000000ff,cbf29ce484222325,\(others.joined(separator: ","))\n"
        let record = try #require(SearchBlockRecord(id: "n0", data: Data(text.utf8)))
        #expect(record.hashes == [255, 0xcbf2_9ce4_8422_2325] + others.map { ContentHash.key($0.utf8) })
    }

    @Test func contentHashKeysAreTheStoresHexOrAHashOfOtherText() {
        #expect(ContentHash.key("00000000000000ff".utf8) == 255)
        #expect(ContentHash.key("cbf29ce484222325".utf8) == 0xcbf2_9ce4_8422_2325)
        #expect(ContentHash.hex(ContentHash.key("0123456789abcdef".utf8)) == "0123456789abcdef")
        // Not 16 lowercase hex digits: a hash of the text, different for different texts.
        let others = ["", "xyz", "0123456789ABCDEF", "0123456789abcdeg", "0123456789abcdef0"].map { ContentHash.key($0.utf8) }
        #expect(Set(others).count == others.count)
        #expect(!others.contains(0x0123_4567_89ab_cdef))
    }
}

@Suite("The manifest, written in chunks")
struct SiteManifestWriteTests {
    static func digest(_ value: Int) -> BuildDigest {
        var digest = BuildDigest()
        digest.add(value)
        return digest
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A manifest of 300 post pages written into a fresh folder and read back (so it knows its order); the caller
    /// removes the folder.
    static func previousManifest() throws -> (folder: URL, url: URL, digests: [String: BuildDigest], manifest: SiteManifest) {
        let folder = try Self.folder()
        let url = folder.appendingPathComponent(SiteManifest.fileName)
        let digests = Dictionary(uniqueKeysWithValues: (0..<300).map { ("posts/\($0 * 5).html", digest($0)) })
        try SiteManifest(digests: digests).write(to: url)
        return (folder, url, digests, try #require(SiteManifest.load(from: folder)))
    }

    @Test func aManifestWrittenInChunksReadsBackEqual() throws {
        var digests: [String: BuildDigest] = [:]
        for index in 0..<40_000 {
            var digest = BuildDigest()
            digest.add(index)
            digests["posts/\(index * 7).html"] = digest
        }
        let manifest = SiteManifest(digests: digests)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try manifest.write(to: folder.appendingPathComponent(SiteManifest.fileName))
        let written = try Data(contentsOf: folder.appendingPathComponent(SiteManifest.fileName))
        #expect(written.count > 1 << 20)
        #expect(written == manifest.encoded())
        #expect(SiteManifest.load(from: folder) == manifest)
    }

    @Test func everyPathFindsItsRowByteForByteAndNoOtherPathDoes() throws {
        // Lengths 1 to 24 (the table hashes eight bytes at a time, then the tail), and 20,000 posts' pages.
        let short = (1...24).map { String(repeating: "a", count: $0) }
        let named = ["keywords/서울.html", "boards/\u{D55C}.html"] + (0..<20_000).map { "posts/\($0).html" }
        let paths = short + named
        let manifest = SiteManifest(digests: Dictionary(uniqueKeysWithValues: paths.enumerated().map { ($1, Self.digest($0)) }))
        for (index, path) in paths.enumerated() {
            #expect(manifest.digest(of: path) == Self.digest(index), "\(path)")
            #expect(manifest.row(of: path).map { manifest.paths[$0] } == path)
        }
        // The same name decomposed (NFD) is another file; so is a prefix, a longer name, or one never listed.
        #expect(manifest.row(of: "boards/\u{1112}\u{1161}\u{11AB}.html") == nil)
        #expect("boards/\u{1112}\u{1161}\u{11AB}.html" == "boards/\u{D55C}.html")
        for absent in ["posts/20000.html", "posts/1.htm", "posts/1.html ", String(repeating: "a", count: 25), "", "keywords/서울"] {
            #expect(manifest.row(of: absent) == nil, "\(absent)")
        }
        // Read back from its file, the same; a line listed twice makes the file one this version did not write.
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(SiteManifest.fileName)
        try manifest.write(to: url)
        let loaded = try #require(SiteManifest.load(from: folder))
        #expect(paths.allSatisfy { loaded.digest(of: $0) == manifest.digest(of: $0) })
        #expect(loaded.row(of: "posts/20000.html") == nil)
        let text = try String(contentsOf: url, encoding: .utf8)
        let last = try #require(text.split(separator: "\n").last)
        try Data((text + last + "\n").utf8).write(to: url)
        #expect(SiteManifest.load(from: folder) == nil)
    }

    @Test("a build's own table of paths finds each by its bytes past every growth, refuses one twice, and lists them in order")
    func declaredPathsFindEachPathByItsBytes() throws {
        // 5,000 paths: the table starts at 1,024 and grows three times; lengths 1 to 40 (hashed eight bytes at a time).
        let composed = "boards/\u{D55C}.html"
        var paths = (1...40).map { String(repeating: "b", count: $0) } + [composed, "keywords/서울.html"]
        paths += (0..<5_000).map { "search/n\($0 % 61)/c\($0 / 8)-\($0 % 8).js" }
        var declared = DeclaredPaths()
        for (index, path) in paths.enumerated() { #expect(declared.insert(path, digest: Self.digest(index)) == index, "\(path)") }
        #expect(declared.count == paths.count)
        for (index, path) in paths.enumerated() {
            #expect(declared.number(of: path) == index, "\(path)")
            #expect(declared.path(index) == path && declared.digests[index] == Self.digest(index))
            #expect(declared.insert(path, digest: Self.digest(0)) == nil, "a path declared twice: \(path)")
        }
        #expect(declared.count == paths.count)
        // The same name decomposed is another path; so is a prefix or a longer one.
        for absent in ["boards/\u{1112}\u{1161}\u{11AB}.html", "search/n0/c0-0.j", "search/n0/c0-0.js ", String(repeating: "b", count: 41)] {
            #expect(declared.number(of: absent) == nil, "\(absent)")
        }
        // In the manifest's order: what sorting the strings by their bytes gives.
        #expect(declared.numbersInOrder().map { paths[$0] } == paths.sorted(by: Bytes.utf8Precedes))
        // A full build's manifest written from the table reads back with every path and digest, the manifest's own path
        // left out.
        #expect(declared.insert(SiteManifest.path, digest: Self.digest(-1)) != nil)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try SiteManifest.write(declared, to: folder.appendingPathComponent(SiteManifest.fileName))
        let loaded = try #require(SiteManifest.load(from: folder))
        #expect(loaded.isSorted && loaded.count == paths.count)
        #expect(paths.enumerated().allSatisfy { loaded.digest(of: $1) == Self.digest($0) })
        #expect(loaded.row(of: SiteManifest.path) == nil)
    }

    @Test func oneNameInNFCAndInNFDIsTwoRowsAndManifestsCompareThemApart() throws {
        let (composed, decomposed) = ("boards/\u{D55C}.html", "boards/\u{1112}\u{1161}\u{11AB}.html")
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func load(_ lines: [(String, Int)]) throws -> SiteManifest {
            let body = lines.map { "\(Self.digest($0.1)) \($0.0)\n" }.joined()
            try Data((SiteManifest.header + "\n" + body).utf8).write(to: folder.appendingPathComponent(SiteManifest.fileName))
            return try #require(SiteManifest.load(from: folder))
        }
        let both = try load([(decomposed, 1), (composed, 2)])
        #expect(both.count == 2)
        #expect(both.row(of: composed).map { both.paths[$0] } == composed)
        #expect(both.row(of: decomposed).map { both.paths[$0] } == decomposed)
        #expect(both.digest(of: composed) == Self.digest(2))
        #expect(both.digest(of: decomposed) == Self.digest(1))
        // Equal only to a manifest of the same bytes and digests: not to one that swaps the digests, nor to one listing
        // the composed name twice's worth of rows under another path.
        #expect(both == (try load([(decomposed, 1), (composed, 2)])))
        #expect(both != (try load([(decomposed, 2), (composed, 1)])))
        #expect(both != (try load([(composed, 2), ("boards/other.html", 1)])))
        #expect(both != (try load([(composed, 2)])))
    }

    @Test func aManifestWrittenAfterAnotherKeepsPathOrderWithPathsAddedAndRemoved() throws {
        let digest = Self.digest
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(SiteManifest.fileName)
        let old = Dictionary(uniqueKeysWithValues: (0..<500).map { ("posts/\($0 * 3).html", digest($0)) })
        try SiteManifest(digests: old).write(to: url)
        let previous = try #require(SiteManifest.load(from: folder))
        // Every third old path gone, new paths before, between and after the old ones, some digests changed.
        var next = old.filter { !$0.key.hasSuffix("9.html") }
        for index in 0..<200 { next["posts/\(index * 7 + 1).html"] = digest(-index) }
        next["assets/a.css"] = digest(1)
        next["search/z.js"] = digest(2)
        next["posts/3.html"] = digest(99)
        for candidate in [next, old, [:], ["only.html": digest(5)]] {
            let manifest = SiteManifest(digests: candidate)
            // As a rebuild writes it: the previous rows still made, their changed digests, the new paths merged in.
            let changes = previous.paths.indices.compactMap { row in
                candidate[previous.paths[row]].flatMap { $0 == previous.digest(atRow: row) ? nil : (row: row, digest: $0) }
            }
            let additions = candidate.filter { previous.row(of: $0.key) == nil }.map { (path: $0.key, digest: $0.value) }
            #expect(
                try previous.write(
                    to: url, keeping: { candidate[previous.paths[$0]] != nil }, replacing: changes, adding: additions))
            #expect(try Data(contentsOf: url) == manifest.encoded())
        }
    }

    @Test func aManifestWithTheSamePathsIsWrittenByReplacingDigests() throws {
        let digest = Self.digest
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(SiteManifest.fileName)
        var digests = Dictionary(uniqueKeysWithValues: (0..<300).map { ("posts/\($0 * 5).html", digest($0)) })
        digests["index.html"] = digest(-1)
        try SiteManifest(digests: digests).write(to: url)
        let previous = try #require(SiteManifest.load(from: folder))
        let changes = [("posts/5.html", digest(1000)), ("index.html", digest(1001)), ("posts/1495.html", digest(1002))]
        for (path, value) in changes { digests[path] = value }
        let rows = try changes.map { (row: try #require(previous.row(of: $0.0)), digest: $0.1) }
        #expect(try previous.write(to: url, replacing: rows))
        #expect(try Data(contentsOf: url) == SiteManifest(digests: digests).encoded())
        // A manifest made in memory does not know its order: nothing is written, and the caller writes it in full.
        let written = try Data(contentsOf: url)
        #expect(try !SiteManifest(digests: digests).write(to: url, replacing: []))
        #expect(try Data(contentsOf: url) == written)
    }

    @Test("new paths merge into the previous manifest's order: first, between and after its paths, in UTF-8 order")
    func newPathsMergeIntoThePreviousOrder() throws {
        let digest = Self.digest
        var (folder, url, digests, previous) = try Self.previousManifest()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Before every path, between two (unsorted on purpose), after every path, and a path whose UTF-8 order differs
        // from its UTF-16 order.
        let added = [
            ("posts/7.html", digest(2000)), ("assets/a.css", digest(2001)), ("posts/1.html", digest(2002)), ("zz/í.html", digest(2003)),
            ("zz/\u{FF61}.html", digest(2004)), ("zz/\u{1F600}.html", digest(2005)),
        ]
        let change = (row: try #require(previous.row(of: "posts/10.html")), digest: digest(3000))
        for (path, value) in added { digests[path] = value }
        digests["posts/10.html"] = change.digest
        #expect(try previous.write(to: url, replacing: [change], adding: added.map { (path: $0.0, digest: $0.1) }))
        #expect(try Data(contentsOf: url) == SiteManifest(digests: digests).encoded())
        #expect(try previous.write(to: url, replacing: [], adding: [(path: "a.html", digest: digest(1))]))
        #expect(try SiteManifest.load(from: folder)?.digests.count == 301)
    }

    @Test("rows a build no longer makes leave the manifest written in the previous order, the first and the last included")
    func rowsNotKeptLeaveTheManifest() throws {
        let digest = Self.digest
        var (folder, url, digests, previous) = try Self.previousManifest()
        defer { try? FileManager.default.removeItem(at: folder) }
        let gone = [previous.paths.first!, previous.paths[150], previous.paths.last!]
        let goneRows = Set(try gone.map { try #require(previous.row(of: $0)) })
        for path in gone { digests[path] = nil }
        digests["posts/2.html"] = digest(4000)
        #expect(
            try previous.write(
                to: url, keeping: { !goneRows.contains($0) }, replacing: [], adding: [(path: "posts/2.html", digest: digest(4000))]))
        #expect(try Data(contentsOf: url) == SiteManifest(digests: digests).encoded())
    }

    @Test("a path in another Unicode normalisation is another file, not the previous manifest's row")
    func anotherNormalisationIsAnotherFile() throws {
        let (decomposed, composed) = ("assets/cafe\u{301}.css", "assets/caf\u{E9}.css")
        #expect(decomposed == composed, "Swift compares strings by canonical equivalence")
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try SiteManifest(digests: [decomposed: Self.digest(1)]).write(to: folder.appendingPathComponent(SiteManifest.fileName))
        let previous = try #require(SiteManifest.load(from: folder))
        #expect(previous.row(of: decomposed) == 0)
        #expect(previous.row(of: composed) == nil && previous.digest(of: composed) == nil)
        let (staging, site) = (folder.appendingPathComponent("staging"), folder.appendingPathComponent("site"))
        for url in [staging, site] { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        let output = SiteOutput(stagingDirectory: staging, previousDirectory: site, previousManifest: previous)
        try output.write(Data("body {}".utf8), to: composed)
        // Staged (and so published) under the bytes it was written to; the previous file's row is not declared (removed).
        #expect(output.stagedPaths.map { Array($0.utf8) } == [Array(composed.utf8)])
        #expect(!output.previousManifestCoverage.allDeclared)
    }

    @Test("a path listed twice makes a manifest unreadable: the next build renders everything")
    func aPathListedTwiceMakesTheManifestUnreadable() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let line = "\(Self.digest(1).description) a.html"
        let url = folder.appendingPathComponent(SiteManifest.fileName)
        try Data(([SiteManifest.header, line, "\(Self.digest(2).description) b.html"].joined(separator: "\n") + "\n").utf8).write(to: url)
        #expect(SiteManifest.load(from: folder)?.count == 2)
        try Data(([SiteManifest.header, line, line].joined(separator: "\n") + "\n").utf8).write(to: url)
        #expect(SiteManifest.load(from: folder) == nil)
    }

    @Test("a manifest whose lines are out of order reads back but claims no order: the next one is written sorted")
    func aManifestOutOfOrderReadsBackWithoutItsOrder() throws {
        let digest = Self.digest
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(SiteManifest.fileName)
        let digests = ["b.html": digest(1), "a.html": digest(2), "c/d.html": digest(3)]
        let lines = ["b.html", "a.html", "c/d.html"].map { "\(digests[$0]!.description) \($0)" }
        try Data(([SiteManifest.header] + lines).joined(separator: "\n").appending("\n").utf8).write(to: url)
        let previous = try #require(SiteManifest.load(from: folder))
        #expect(previous.digests == digests)
        #expect(!previous.isSorted)
        #expect(try !previous.write(to: url, replacing: []), "no order known: nothing written by replacing")
        try SiteManifest.write(digests, to: url)
        #expect(try Data(contentsOf: url) == SiteManifest(digests: digests).encoded())
        // A digest that is not 32 hex digits makes the manifest unreadable (the next build renders everything).
        try Data((SiteManifest.header + "\n" + String(repeating: "g", count: 32) + " a.html\n").utf8).write(to: url)
        #expect(SiteManifest.load(from: folder) == nil)
    }

    @Test("an earlier version's address is told from a post page's, negative ids included; only post pages are counted")
    func versionAddresses() {
        #expect(SitePaths.version(3, ofPost: 120) == "posts/120-v3.html")
        for path in ["posts/120-v3.html", "posts/-5-v2.html", SitePaths.version(12, ofPost: -7)] { #expect(SitePaths.isVersion(path), "\(path)") }
        for path in ["posts/120.html", "posts/-5.html", "posts/v2.html", "posts/120-v.html", "posts/120-x2.html", "boards/1-v2.html"] {
            #expect(!SitePaths.isVersion(path), "\(path)")
        }
        #expect(SiteOutput.kind(of: "posts/120-v3.html") == .version && SiteOutput.kind(of: "posts/-5.html") == .post)
        let paths = ["posts/120.html", "posts/-5.html", "posts/120-v1.html", "posts/-5-v2.html", "boards/1/index.html"]
        #expect(SiteManifest(digests: Dictionary(uniqueKeysWithValues: paths.map { ($0, BuildDigest()) })).postPageCount == 2)
    }
}
