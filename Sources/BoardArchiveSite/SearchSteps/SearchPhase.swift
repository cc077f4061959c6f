import BoardArchiveModel
import BoardArchiveRender
import BoardArchiveSearch
import BoardArchiveStore
import Foundation
import Logging

/// Logs the time each named step of a phase took, at debug level.
struct PhaseClock {
    let logger: Logger
    private var last = Date()

    init(logger: Logger) { self.logger = logger }

    /// Logs the time since the previous lap (or the start) under `name`.
    mutating func lap(_ name: String) {
        let now = Date()
        logger.debug("Step done", metadata: ["step": "\(name)", "seconds": "\(String(format: "%.2f", now.timeIntervalSince(last)))"])
        last = now
    }
}

/// The search phase of the site build: the sharded index under `search/`, `search.html`, and the keyword pages.
///
/// It runs in named steps over the store, each writing through the build's ``SiteOutput``:
/// 1. **blocks** — posts stream without bodies in search-block order and are cut into blocks of
///    ``SearchIndexConfiguration/blockSize``. A block whose digest (its posts' ids, content hashes and board names)
///    the previous build recorded is kept as it is; the others get their bodies and are encoded on every core.
/// 2. **directory** — rebuilt only when a block changed, from the previous directory minus the changed blocks plus
///    the tokens of the blocks just encoded.
/// 3. **keywords** — the configured keywords and the most frequent terms (from per-block term counts).
/// 4. **matches** — per block and keyword, the matching posts: a block just encoded in its posts' text
///    (``KeywordMatcher``, the brute-force answer the index and `search.js` give); kept blocks reuse what their
///    record says and find a new keyword in their index files.
/// 5. **pages** — `search/manifest.js`, `search.html`, keyword pages (only those whose rows changed) and the
///    keyword index.
///
/// Templates: `search`, `keyword`, `keyword-index` and the partial `keyword-row`.
struct SearchPhase: Sendable {
    /// What the phase produced.
    struct Report: Equatable, Sendable {
        var indexFiles = 0
        var keywordPages = 0
        var keywords: [String] = []
        var blocksEncoded = 0
        var blocksKept = 0
        /// Encoded blocks patched from the previous build's files (a few of their posts changed).
        var blocksPatched = 0
    }

    /// A block of the index in this build.
    struct Block {
        var id: String
        var digest: BuildDigest
        /// The block as later steps' inputs name it.
        var input: BlockDigestInput { BlockDigestInput(id: id, digest: digest.description) }
        var record: SearchBlockRecord
        var kept: Bool
        /// For a re-encoded block, the matches its unchanged posts carry over from the previous build.
        var carried: CarriedMatches?
        var isNotice: Bool { SearchIndexFormat.isNoticeBlock(id) }
    }

    let configuration: BuildConfiguration
    let logger: Logger
    let indexConfiguration: SearchIndexConfiguration

    /// The search phase of the build of `context`.
    init(_ context: BuildContext) {
        self.init(configuration: context.configuration, logger: context.logger, indexConfiguration: context.configuration.searchIndex)
    }

    /// Runs the phase over `context`'s store and boards, writing through its output.
    func run(_ context: BuildContext) throws -> Report {
        try run(
            store: context.store, boards: context.boards, output: context.output, renderer: context.renderer, pages: context.pages,
            base: context.base, posts: context.postsDigest)
    }

    init(configuration: BuildConfiguration, logger: Logger, indexConfiguration: SearchIndexConfiguration = SearchIndexConfiguration()) {
        self.configuration = configuration
        self.logger = logger
        self.indexConfiguration = indexConfiguration
    }

    /// The version of the index's file layout: bump it when the same posts give other index files, so that the next
    /// build encodes every block again instead of keeping blocks made the old way. 2: tokens and terms in UTF-8 order;
    /// 3: contents shards numbered within their group of posts (`c<group>-<n>`); 4: a post's contents cut into pieces
    /// of about the contents target at places no normalisation or grapheme rule joins (a piece cut elsewhere marked),
    /// which readers read one after another; 5: a head per post (`c<group>-<index>`: its record and first piece), further
    /// pieces `c<group>-<index>-<k>`.
    static let indexFormat = "index-5"

    /// Path of the directory's state: its bucket count and files; its digest is the directory's.
    static let directoryStatePath = BuildState.cache + "search-directory.txt"
    /// Path of the list of blocks (ids in build order); its digest covers the posts and boards of the store.
    static let blocksStatePath = BuildState.cache + "search-blocks.txt"
    /// Path of the keyword list; its digest covers the blocks and the keyword settings.
    static let keywordStatePath = BuildState.cache + "search-keywords.txt"

    /// Runs the phase; `SiteBuilder` runs it beside the board and post pages step (``BuildStep/sideBySide(_:)``).
    ///
    /// `posts` is the digest of every board and post as the store holds them (``SiteBuilder/postsDigest(boards:)``): when
    /// the previous build recorded the same, its blocks are kept without streaming the archive.
    @discardableResult
    func run(
        store: any ArchiveSnapshot, boards: [Board], output: SiteOutput, renderer: TemplateRenderer, pages: PageContext, base: BuildDigest,
        posts: BuildDigest? = nil
    ) throws -> Report {
        let names = Dictionary(boards.map { ($0.boardId, $0.displayName) }, uniquingKeysWith: { first, _ in first })
        let digestBase = SearchSettingsInput(
            indexFormat: Self.indexFormat, blockSize: indexConfiguration.blockSize,
            postingShardTargetBytes: indexConfiguration.postingShardTargetBytes, metaShardSize: indexConfiguration.metaShardSize,
            contentsShardTargetBytes: indexConfiguration.contentsShardTargetBytes,
            directoryShardTargetBytes: indexConfiguration.directoryShardTargetBytes, maximumFileBytes: indexConfiguration.maximumFileBytes
        ).digest(base: base)
        var timer = PhaseClock(logger: logger)
        var pass = SearchBlockPass(
            configuration: indexConfiguration, names: names, anonymousLabel: pages.strings["anonymous"], digestBase: digestBase, output: output)
        let blocksDigest = posts.map { SearchBlocksInput(posts: $0.description).digest(base: digestBase) }
        do {
            var keptAll = false
            let previousIds = output.previousContents(of: Self.blocksStatePath).map {
                String(decoding: $0, as: UTF8.self).split(separator: "\n").map(String.init)
            }
            if let blocksDigest, output.previousDigest(of: Self.blocksStatePath) == blocksDigest, let ids = previousIds {
                let removedIds = try store.removedPostIds()
                keptAll = try pass.keepAll(ids: ids, removedIds: removedIds, lookup: store)
            }
            if !keptAll {
                if let previousIds { try pass.prefetchRecords(ids: previousIds) }
                try pass.run(store)
            }
            if let blocksDigest, try output.needsRendering(Self.blocksStatePath, digest: blocksDigest) {
                try output.write(Data(Self.searchOrder(pass.blocks).map { $0.id + "\n" }.joined().utf8), to: Self.blocksStatePath)
            }
        } catch let error as BuildError {
            throw error
        } catch let error as SearchIndexError {
            throw error
        } catch {
            throw BuildError(phase: .store, underlying: error)
        }
        timer.lap("search blocks")
        let blocks = Self.searchOrder(pass.blocks)
        var report = Report(blocksEncoded: pass.blocks.count - pass.keptCount, blocksKept: pass.keptCount, blocksPatched: pass.patchedCount)
        let total = blocks.reduce(0) { $0 + $1.record.postIds.count }
        let directoryBuckets = try writeDirectory(blocks: blocks, directory: &pass.directory, base: digestBase, output: output)
        let manifestBlocks = blocks.map {
            SearchIndexBuilder.ManifestBlock(id: $0.id, count: $0.record.postIds.count, postingBuckets: $0.record.postingBuckets)
        }
        let shownBoards = names.filter { pass.boardsWithPosts.contains($0.key) }
        func manifest(_ keywords: [SearchKeywordLink]) -> Data {
            SearchIndexBuilder.manifest(
                configuration: indexConfiguration, blocks: manifestBlocks, total: total, directoryBuckets: directoryBuckets, boards: shownBoards,
                keywords: keywords)
        }
        timer.lap("search directory")
        let keywords = try selectKeywords(blocks: blocks, frequency: pass.frequency, base: digestBase, output: output)
        var matched = blocks
        let anonymous = pages.strings["anonymous"]
        try findMatches(
            of: keywords, in: &matched,
            documents: { ids in
                let posts: [Int: Post]
                do { posts = try store.posts(ids: ids) } catch { throw BuildError(phase: .store, underlying: error, location: "keyword matches") }
                return try ids.map { id in
                    guard let post = posts[id] else {
                        throw BuildError(
                            phase: .store, reason: .underlying("post \(id) left the store while its keyword matches were found; run the build again"),
                            location: "keyword matches")
                    }
                    return SearchDocument(post: post, boardName: names[post.boardId] ?? "", anonymousLabel: anonymous)
                }
            }, provisionalManifest: manifest([]), output: output)
        timer.lap("keyword matches")
        let counts = keywords.map { keyword in matched.reduce(0) { $0 + ($1.record.matches[keyword.slug]?.count ?? 0) } }
        let links = zip(keywords, counts).map { SearchKeywordLink(keyword: $0.text, path: "keywords/\($0.slug).html", count: $1) }
        try output.write(manifest(links), to: SearchIndexBuilder.manifestPath)
        // Every `search/` path declared so far (the search page, also of this kind, comes next; the board step beside this
        // one declares none).
        report.indexFiles = output.currentReport.files[.search] ?? 0
        let strings = pages.strings
        let searchHTML = try renderer.renderPage(
            template: "search", context: Self.searchPage(boards: boards, pages: pages, rowTemplate: try SearchRowTemplate.render(with: renderer)),
            relativeRoot: "", title: strings["search"],
            scripts: ["assets/search.js"])
        try output.write(searchHTML, to: SitePaths.search)
        let writer = KeywordPageWriter(pages: pages, strings: strings, boardNames: names)
        let removedPlaces = RemovedPlaces(documents: pass.removedDocuments, keywords: keywords)
        report.keywordPages += try writer.writePages(
            of: keywords, blocks: matched, removedPlaces: removedPlaces, store: store, renderer: renderer, output: output, base: digestBase)
        let index = writer.indexContext(zip(keywords, counts).map { ($0.text, $0.slug, $1) })
        try output.write(
            try renderer.renderPage(template: "keyword-index", context: index, relativeRoot: "../", title: strings["keywordsTitle"]),
            to: "keywords/index.html")
        report.keywordPages += 1
        report.keywords = keywords.map(\.text)
        timer.lap("keyword pages")
        logger.debug(
            "Built search",
            metadata: [
                "blocksEncoded": "\(report.blocksEncoded)", "blocksKept": "\(report.blocksKept)",
                "blocksPatched": "\(report.blocksPatched)", "indexFiles": "\(report.indexFiles)",
                "keywordPages": "\(report.keywordPages)",
            ])
        return report
    }

    /// `blocks` in search order: notice blocks newest first, then the others newest first.
    static func searchOrder(_ blocks: [Block]) -> [Block] {
        blocks.sorted { lhs, rhs in
            lhs.isNotice != rhs.isNotice ? lhs.isNotice : SearchIndexBuilder.blockNumber(lhs.id) > SearchIndexBuilder.blockNumber(rhs.id)
        }
    }

    /// Writes the block directory, or keeps the previous one when no block changed; returns its bucket count.
    private func writeDirectory(blocks: [Block], directory: inout SearchDirectory, base: BuildDigest, output: SiteOutput) throws -> Int {
        let digest = SearchDirectoryInput(blocks: blocks.map(\.input)).digest(base: base)
        if output.previousDigest(of: Self.directoryStatePath) == digest, let state = output.previousContents(of: Self.directoryStatePath) {
            let lines = String(decoding: state, as: UTF8.self).split(separator: "\n")
            let files = lines.dropFirst().map(String.init)
            if let buckets = lines.first.flatMap({ Int($0) }), try files.allSatisfy({ try output.keepPrevious($0) }) {
                _ = try output.keepPrevious(Self.directoryStatePath)
                return buckets
            }
        }
        let kept = Set(blocks.filter(\.kept).map { SearchIndexBuilder.blockNumber($0.id) })
        if !kept.isEmpty {
            let previous = output.previousManifest.paths.filter { $0.hasPrefix("search/d") }.sorted().compactMap { path in
                output.previousContents(of: path).map { (path: path, data: $0) }
            }
            try directory.addPrevious(files: previous, keeping: kept)
        }
        let (files, buckets) = directory.files(targetBytes: indexConfiguration.directoryShardTargetBytes)
        for path in files.keys.sorted() {
            guard let data = files[path] else { continue }
            try output.write(data, to: path)
        }
        let state = "\(buckets)\n" + files.keys.sorted().joined(separator: "\n") + "\n"
        if try output.needsRendering(Self.directoryStatePath, digest: digest) { try output.write(Data(state.utf8), to: Self.directoryStatePath) }
        return buckets
    }

    /// The search page (``PageContext/searchPage(targets:boards:rowTemplate:)``).
    static func searchPage(boards: [Board], pages: PageContext, rowTemplate: String) -> [String: Any] {
        pages.searchPage(
            targets: SearchTarget.allCases.map { ($0.rawValue, pages.strings.label(of: $0)) }, boards: boards, rowTemplate: rowTemplate)
    }
}
