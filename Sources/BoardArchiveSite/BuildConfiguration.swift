import BoardArchiveModel
import BoardArchiveSearch
import Foundation

/// Everything a build needs besides the store, resolved once by the command line.
public struct BuildConfiguration: Sendable {
    /// The output folder; default `site` in the current directory. Replaced as a whole by each build.
    public var outputDirectory: URL
    /// The build's state folder (``BuildState``: what the next build needs to render only what changed); nil means
    /// `<output>.boardarchive-state` beside the output folder. Never published; a site without it builds in full.
    public var stateDirectory: URL?
    /// The Mustache templates folder (`layout`, `home`, `board`, `post`, `partials/`, `assets/`); nil means
    /// `templates` in the current directory (the repository's default templates).
    public var templatesDirectory: URL?
    /// The build's "now": decides new badges and `HH:mm` labels. Inject it for reproducible output.
    public var now: Date
    /// The archive's time zone; "today" is a calendar day in it. Default: the machine's.
    public var timeZone: TimeZone
    /// The interface language; default Korean.
    public var language: SiteLanguage
    /// Replace a non-empty output folder that has no `.boardarchive` marker; default false.
    public var force: Bool
    /// Publish a site that keeps fewer than half of the previous site's post pages; default false (such a build
    /// is refused, since it usually means the wrong or a damaged store).
    public var allowShrink = false
    /// Extra keywords to pre-render as keyword pages (search phase); default none.
    public var keywords: [String]
    /// How many of the archive's most frequent keywords get pages (search phase); default 20.
    public var topKeywords: Int
    /// The largest share of the indexed posts a term may be found in and still be one of the ``topKeywords``; default
    /// 0.1 (a tenth). A more common term is a near stop word whose pages would list the archive again, so the next
    /// most frequent terms take its place. Small archives keep terms of up to ``topKeywordsPostFloor`` posts whatever
    /// the share; `1` turns the ceiling off. Configured keywords (``keywords``) are never held back.
    public var topKeywordsMaxShare = 0.1
    /// The number of posts a top keyword may always be found in, whatever ``topKeywordsMaxShare`` says: 300 (ten pages).
    public var topKeywordsPostFloor = 300

    /// The most posts a top keyword may be found in, for an archive of `indexedPosts` posts; nil when that is every
    /// post (no term is found in more posts than the archive holds).
    func topKeywordCeiling(indexedPosts: Int) -> Int? {
        // A share that is not a number below 1 (only a library caller can pass one) means no ceiling.
        guard topKeywordsMaxShare.isFinite, topKeywordsMaxShare < 1 else { return nil }
        let ceiling = max(topKeywordsPostFloor, Int((topKeywordsMaxShare * Double(indexedPosts)).rounded(.down)))
        return ceiling < indexedPosts ? ceiling : nil
    }
    /// The key of writers' pseudonyms (`--pseudonymize-writers`): when set, the site names every writer by a stable
    /// pseudonym derived from it (see ``WriterPseudonyms``) instead of their name; at least 16 bytes. Default nil.
    public var pseudonymKey: Data?
    /// The search index's block and shard sizes; the defaults suit every archive (tests use small blocks).
    public var searchIndex = SearchIndexConfiguration()
    /// Where the site will be published (`https://example.org/archive/`, always ending in `/`); default none.
    ///
    /// With it the build also writes `sitemap.xml` and `robots.txt`, and the feeds use absolute links and ids.
    /// Pages never use it: their links stay relative, so the site still works from `file://`.
    public var baseURL: URL?
    /// Ask search engines not to index any page (`<meta name="robots" content="noindex">` on every page, and no
    /// sitemap); default false.
    public var noindex = false
    /// What the site does with posts the source deleted (`build.deleted-posts`); the store keeps them either way.
    public var deletedPosts = DeletedPosts.marked

    /// Creates a configuration; only `now` has no default, so that every build states its clock.
    public init(
        outputDirectory: URL = URL(fileURLWithPath: "site", isDirectory: true), templatesDirectory: URL? = nil, now: Date,
        timeZone: TimeZone = .current, language: SiteLanguage = .ko, force: Bool = false, keywords: [String] = [], topKeywords: Int = 20
    ) {
        self.outputDirectory = outputDirectory
        self.templatesDirectory = templatesDirectory
        self.now = now
        self.timeZone = timeZone
        self.language = language
        self.force = force
        self.keywords = keywords
        self.topKeywords = topKeywords
    }

    /// The templates folder to use: the configured one, else `templates` in the current directory.
    public var resolvedTemplatesDirectory: URL {
        templatesDirectory
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            .appendingPathComponent("templates", isDirectory: true)
    }

    /// The state folder to use: the configured one, else `<output>.boardarchive-state` beside the output folder.
    public var resolvedStateDirectory: URL {
        stateDirectory?.standardizedFileURL ?? BuildState.defaultDirectory(for: outputDirectory)
    }

    /// The build's clock in the archive's time zone.
    public var clock: ArchiveClock { ArchiveClock(now: now, timeZone: timeZone) }
}

/// What the site does with a post the source no longer has (`build.deleted-posts`). The store keeps it either way.
public enum DeletedPosts: String, Sendable, Equatable, CaseIterable {
    /// Published with "deleted at the source, last seen on …" on its page and in its board's listing (the default).
    case marked
    /// Published like any other post.
    case unmarked
    /// Left out of the site, as a takedown leaves a post out: its place is kept (listings and search blocks do not
    /// move) and its address says the source deleted it.
    case leftOut = "left-out"
}
