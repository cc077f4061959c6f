import BoardArchive

extension SettingKey {
    /// Every setting, in the order of the starter file. Sections: `api`, `crawl`, `media`, `nightly`, `build`, `log`.
    ///
    /// To add a setting, add one line here (name, kind, flag, default, help) and read it where it is used with
    /// `settings.string("build.base-url")` (or `int`, `double`, `bool`, `strings`).
    static let all: [SettingKey] = [
        SettingKey("api.url", .url, flag: "--api", example: "https://mp-dev.mail-server.kr/api/v2", "The board API's base URL."),
        SettingKey(
            "api.token-env", .variableName, flag: "--token-env", default: "BOARD_API_TOKEN",
            "The environment variable holding the API token (the token itself is never written here)."),
        SettingKey(
            "api.token-file", .path, flag: "--token-file", example: "secrets/board-api-token", "A file holding the API token, instead of token-env."),
        SettingKey("store", .store, flag: "--store", default: "archive.sqlite", "The archive store (SQLite file)."),
        SettingKey(
            "store.create", .boolean, flag: "--create-store", default: "true",
            "Create the store when it is missing; false (nightly runs) refuses a missing or empty store instead of starting a new archive."),
        SettingKey(
            "store.password-env", .variableName, flag: "--store-password-env", default: "PGPASSWORD",
            "The environment variable holding a PostgreSQL store's password (never the URL or this file); else ~/.pgpass is read."),
        SettingKey(
            "store.password-file", .path, flag: "--store-password-file", example: "secrets/archive-db-password",
            "A file holding a PostgreSQL store's password, instead of store.password-env."),
        SettingKey("crawl.concurrency", .integer(1...64, note: ""), flag: "--concurrency", default: "4", "Boards crawled at the same time."),
        SettingKey(
            "crawl.page-size", .integer(2...1_000, note: " (pages overlap by one post)"), flag: "--page-size", default: "30",
            "Posts requested per page (the API's limit)."),
        SettingKey(
            "crawl.boards", .list, flag: "--board", example: "[28479, 28480]",
            "Crawl only these boards (ids; --board adds to them); the others are left as they are. Default: every board."),
        SettingKey(
            "crawl.max-rps", .number(0.01...10_000), flag: "--max-rps", example: "5", "The most requests started per second (default: no cap)."),
        SettingKey(
            "crawl.retries", .integer(1...100, note: ""), flag: "--retries", default: "8",
            "Attempts per request on 5xx, timeouts and dropped connections, the first included."),
        SettingKey("crawl.request-timeout", .number(0.1...3_600), flag: "--request-timeout", default: "30", "Seconds allowed for one request."),
        SettingKey(
            "media.fetch", .boolean, flag: "--media", default: "true",
            "Keep the pictures posts show: fetched at crawl time, kept in the store, published under media/ (off: left as their addresses)."),
        SettingKey(
            "media.allow-hosts", .list, flag: "--media-allow-host", example: "[images.example.org, \"*\"]",
            "Hosts pictures may come from besides the API's own (host or host:port; \"*\": any host with public addresses)."),
        SettingKey(
            "media.max-image-bytes", .integer(1...(1 << 30), note: ""), flag: "--media-max-image-bytes", default: "10485760",
            "The largest picture kept, in bytes."),
        SettingKey(
            "media.max-images-per-post", .integer(0...1_000, note: ""), flag: "--media-max-images-per-post", default: "20",
            "The most pictures kept of one post."),
        SettingKey(
            "media.max-post-bytes", .integer(1...(1 << 40), note: ""), flag: "--media-max-post-bytes", default: "41943040",
            "The most bytes of pictures kept of one post."),
        SettingKey(
            "nightly.full", .boolean, flag: "--full", default: "false", "Read every board in full instead of incrementally from the newest end."),
        SettingKey(
            "nightly.verify-fraction", .fraction, flag: "--verify-fraction", default: "1/7",
            "The share of every board re-read each run to find edits and deletions (1/7, 0.25; 0 turns it off)."),
        SettingKey("build.out", .path, flag: "--out", default: "site", "The output folder."),
        SettingKey(
            "build.state", .path, flag: "--state", example: "site.boardarchive-state",
            "The build's state folder, kept beside the site and never published (default: <out>.boardarchive-state)."),
        SettingKey("build.templates", .path, flag: "--templates", example: "templates", "A templates folder instead of the bundled ones."),
        SettingKey(
            "build.timezone", .timeZone, flag: "--timezone", example: "Asia/Seoul", "The archive's time zone (default: the machine's)."),
        SettingKey("build.lang", .choice(["ko", "en"]), flag: "--lang", default: "ko", "Interface language."),
        SettingKey(
            "build.keywords", .list, flag: "--keyword", example: "[서울, 회의]", "Keywords pre-rendered as result pages (--keyword adds to them)."),
        SettingKey(
            "build.top-keywords", .integer(0...10_000, note: ""), flag: "--top-keywords", default: "20",
            "How many of the most frequent terms get pre-rendered result pages."),
        SettingKey(
            "build.top-keywords-max-share", .fraction, flag: "--top-keywords-max-share", default: "0.1",
            "The largest share of the posts a top keyword may be found in (more common terms are passed over; 1 turns it off)."),
        SettingKey(
            "build.base-url", .url, flag: "--base-url", example: "https://archive.example.org/",
            "Where the site will be published: adds sitemap.xml and robots.txt, and absolute links and ids in the feeds."),
        SettingKey(
            "build.noindex", .boolean, flag: "--noindex", default: "false",
            "Ask search engines not to index any page (a robots noindex tag on every page, no sitemap)."),
        SettingKey(
            "build.deleted-posts", .choice(DeletedPosts.allCases.map(\.rawValue)), flag: "--deleted-posts", default: "marked",
            "Posts the source deleted: marked (\"deleted at the source, last seen on …\" on the page and in the listing), unmarked, "
                + "or left-out (out of the site, their addresses saying so; the store keeps them)."),
        SettingKey(
            "log.level", .choice(["trace", "debug", "info", "notice", "warning", "error", "critical"]), flag: "--log-level", default: "notice",
            "Log level on standard error."),
        SettingKey("log.json", .boolean, flag: "--json-logs", default: "false", "Log JSON lines instead of plain text (for CI)."),
        SettingKey(
            "log.progress-interval", .number(0.01...3_600), default: "5",
            "Seconds between progress lines when standard error is not a terminal (CI); a terminal redraws in place."),
    ]
}
