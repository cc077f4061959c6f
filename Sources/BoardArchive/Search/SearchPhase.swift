import Foundation
import Logging

/// Renders one page: template name, page context, relative root, title, extra scripts → HTML.
typealias SearchPageRenderer = (_ template: String, _ context: [String: Any], _ relativeRoot: String, _ title: String, _ scripts: [String]) throws ->
    String

/// The search phase of the site build: the sharded index under `search/`, `search.html`, and the keyword pages.
///
/// Templates: `search` (the search page, with `assets/search.js`), `keyword` (one page of a keyword's posts),
/// `keyword-index` (`keywords/index.html`) and the partial `keyword-row` (a post row with `<mark>` highlights).
/// Assets `search.js` and `search.css` come with the other assets from `templates/assets/`.
struct SearchPhase: Sendable {
    /// What the phase wrote.
    struct Report: Equatable, Sendable {
        var indexFiles = 0
        var indexBytes = 0
        var keywordPages = 0
        var keywords: [String] = []
    }

    let configuration: BuildConfiguration
    let logger: Logger
    let indexConfiguration: SearchIndexConfiguration

    init(configuration: BuildConfiguration, logger: Logger, indexConfiguration: SearchIndexConfiguration = SearchIndexConfiguration()) {
        self.configuration = configuration
        self.logger = logger
        self.indexConfiguration = indexConfiguration
    }

    /// Reads every post of `boards` from the store and runs the phase; `SiteBuilder` calls this between home and publish.
    @discardableResult
    func run(store: ArchiveStore, boards: [Board], output: SiteOutput, renderer: TemplateRenderer, pages: PageContext) throws -> Report {
        let boardIds = Set(boards.map(\.boardId))
        var posts: [Post] = []
        do {
            try store.forEachPost { post in if boardIds.contains(post.boardId) { posts.append(post) } }
        } catch {
            throw BuildError(phase: .store, underlying: error)
        }
        return try run(
            posts: posts, boards: boards, pages: pages, write: { data, path in try output.write(data, to: path) },
            renderPage: { template, context, root, title, scripts in
                try renderer.renderPage(template: template, context: context, relativeRoot: root, title: title, scripts: scripts)
            })
    }

    /// Runs the phase on posts in memory, writing each file through `write(bytes, relativePath)`.
    @discardableResult
    func run(posts: [Post], boards: [Board], pages: PageContext, write: (Data, String) throws -> Void, renderPage: SearchPageRenderer) throws
        -> Report
    {
        let strings = SearchStrings(language: configuration.language)
        let anonymous = pages.strings["anonymous"]
        let names = Dictionary(boards.map { ($0.boardId, $0.displayName) }, uniquingKeysWith: { first, _ in first })
        let documents = posts.map { SearchDocument(post: $0, boardName: names[$0.boardId] ?? "", anonymousLabel: anonymous) }
        let postsById = Dictionary(posts.map { ($0.postId, $0) }, uniquingKeysWith: { first, _ in first })
        var report = Report()
        do {
            // The keyword answers come from the finished index, so keyword pages and the search page agree.
            let top = KeywordSelector.topTerms(of: documents, count: configuration.topKeywords).map(\.term)
            var keywords: [(keyword: String, slug: String, postIds: [Int])] = []
            let files = try SearchIndexBuilder(configuration: indexConfiguration).makeSearchIndex(for: documents) { reader in
                var seen = Set<String>()
                for keyword in configuration.keywords + top {
                    let normalized = TextNormalizer.normalizedQueryWords(keyword).joined(separator: " ")
                    guard !normalized.isEmpty, seen.insert(normalized).inserted else { continue }
                    let postIds = try reader.search(keyword, target: .all).hits.map(reader.postId(of:))
                    keywords.append((keyword.trimmingCharacters(in: .whitespacesAndNewlines), KeywordSelector.slug(for: keyword), postIds))
                }
                return keywords.map { SearchKeywordLink(keyword: $0.keyword, path: "keywords/\($0.slug).html", count: $0.postIds.count) }
            }
            for path in files.keys.sorted() {
                guard let data = files[path] else { continue }
                try write(data, path)
                report.indexFiles += 1
                report.indexBytes += data.count
            }
            let searchContext = searchPage(boards: boards, strings: strings)
            try write(Data(try renderPage("search", searchContext, "", pages.strings["search"], ["assets/search.js"]).utf8), SitePaths.search)
            let pageWriter = KeywordPageWriter(pages: pages, strings: strings, postsById: postsById, boardNames: names)
            for keyword in keywords {
                report.keywordPages += try pageWriter.writePages(
                    keyword: keyword.keyword, slug: keyword.slug, postIds: keyword.postIds, write: write, renderPage: renderPage)
            }
            let index = pageWriter.indexContext(keywords.map { ($0.keyword, $0.slug, $0.postIds.count) })
            try write(Data(try renderPage("keyword-index", index, "../", strings["keywordsTitle"], []).utf8), "keywords/index.html")
            report.keywordPages += 1
            report.keywords = keywords.map(\.keyword)
        } catch {
            throw BuildError(phase: .search, underlying: error)
        }
        logger.debug(
            "Built search",
            metadata: ["indexFiles": "\(report.indexFiles)", "indexBytes": "\(report.indexBytes)", "keywordPages": "\(report.keywordPages)"])
        return report
    }

    /// The search page: `t` (search strings), `targets` (`value`, `label`), `boards` (`boardId`, `name`).
    func searchPage(boards: [Board], strings: SearchStrings) -> [String: Any] {
        [
            "t": strings.table,
            "targets": SearchTarget.allCases.map { ["value": $0.rawValue, "label": strings.label(of: $0)] },
            "boards": boards.map { ["boardId": $0.boardId, "name": $0.displayName] as [String: Any] },
        ]
    }
}
