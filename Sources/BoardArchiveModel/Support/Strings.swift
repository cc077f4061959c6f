/// The language of the generated site's interface strings (`--lang ko|en`).
public enum SiteLanguage: String, Sendable, Equatable, CaseIterable, Codable {
    /// Korean, the default.
    case ko
    /// English.
    case en
}

/// The interface strings of the generated site, one table per language.
///
/// Templates read them as `{{s.key}}`, the search page's and keyword pages' strings too (one table, not two); every
/// key exists in every language (a test checks it), so a template never renders an empty label because one table
/// lacks a key.
public struct SiteStrings: Sendable, Equatable {
    /// The language of the table.
    public let language: SiteLanguage
    /// Key → label.
    public let table: [String: String]

    /// The table for `language`.
    public init(language: SiteLanguage) {
        self.language = language
        self.table = language == .ko ? Self.koreanTable : Self.englishTable
    }

    /// The label for `key`, or the key itself when no table has it (visible, never empty).
    public subscript(key: String) -> String {
        table[key] ?? key
    }

    /// Formats a count label such as "글 12개" / "12 posts".
    package func postCount(_ count: Int) -> String {
        language == .ko ? "글 \(count)개" : (count == 1 ? "1 post" : "\(count) posts")
    }

    /// Formats "page 3 of 7" / "7쪽 중 3쪽".
    func pageOf(_ page: Int, _ count: Int) -> String {
        language == .ko ? "\(count)쪽 중 \(page)쪽" : "Page \(page) of \(count)"
    }

    /// Formats the name of archive page `page` (numbered from the oldest, 1).
    package func pageNumber(_ page: Int) -> String {
        language == .ko ? "\(page)쪽" : "Page \(page)"
    }

    /// Every string of a language: the site's and the search's (``koreanSearch``, ``englishSearch``), which share no key.
    static let koreanTable = korean.merging(koreanSearch) { site, _ in site }
    static let englishTable = english.merging(englishSearch) { site, _ in site }

    static let korean: [String: String] = [
        "siteTitle": "게시판 아카이브",
        "home": "전체 게시판",
        "boards": "게시판 목록",
        "board": "게시판",
        "postCount": "글 수",
        "latest": "최근 글",
        "latestPosts": "최신 글",
        "noPostsYet": "없음",
        "emptyBoard": "이 게시판에는 아직 글이 없습니다.",
        "notice": "공지",
        "reply": "Re",
        "new": "N",
        "newLong": "새 글",
        "anonymous": "익명",
        "number": "번호",
        "title": "제목",
        "writer": "작성자",
        "date": "작성일",
        "views": "조회",
        "comments": "댓글",
        "attachments": "첨부",
        "attachment": "첨부 파일 있음",
        "search": "검색",
        "searchPlaceholder": "검색어 입력",
        "pagination": "페이지 이동",
        "firstPage": "처음",
        "previousPage": "이전",
        "nextPage": "다음",
        "lastPage": "마지막",
        "firstPageLabel": "최신 글 페이지",
        "previousPageLabel": "더 최근 글 페이지",
        "nextPageLabel": "더 오래된 글 페이지",
        "lastPageLabel": "가장 오래된 글 페이지",
        "backToList": "목록으로",
        "previousPost": "이전 글",
        "nextPost": "다음 글",
        "parentPost": "원글",
        "parentMissing": "원글이 보관되어 있지 않습니다.",
        "parentRemoved": "원글은 보관본에서 삭제되었습니다.",
        "removedTitle": "삭제된 글",
        "removedNotice": "이 글은 보관본에서 삭제되었습니다.",
        "removedOn": "삭제일",
        "pseudonymLabel": "작성자",
        "replies": "답글",
        "postNavigation": "글 이동",
        "archiveNote": "오프라인 보관본",
        "untitled": "(제목 없음)",
        "skipToContent": "본문으로 건너뛰기",
        "timeZoneLabel": "시간대",
        "breadcrumb": "현재 위치",
        "noBoards": "보관된 게시판이 없습니다.",
        "feed": "새 글 피드 (Atom)",
        "deletedAtSource": "원본 게시판에서 삭제된 글입니다. 마지막 확인:",
        "deletedRow": "원본에서 삭제됨, 마지막 확인 {date}",
        "edited": "수정 확인",
        "earlierVersions": "이전 버전",
        "versionLabel": "버전 {n}",
        "versionSeen": "{from} ~ {to} 확인",
        "versionTitle": "{title} (버전 {n})",
        "versionNotice": "이 글의 이전 버전입니다. 원본에서 확인된 기간:",
        "currentVersion": "현재 글 보기",
        "changesToNext": "다음 버전에서 바뀐 내용",
        "nextVersion": "다음 버전",
        "diffRemoved": "삭제된 부분:",
        "diffAdded": "추가된 부분:",
        "diffLegend": "[-삭제-] {+추가+}",
        "bodyUnchanged": "본문은 바뀌지 않았습니다.",
        "titleChanged": "제목",
        "leftOutNotice": "이 글은 원본 게시판에서 삭제되어 보관본에 싣지 않습니다.",
        "leftOutOn": "삭제 확인일",
        "boardDeletedAtSource": "원본에서 삭제된 게시판입니다. 마지막 확인:",
    ]

    static let english: [String: String] = [
        "siteTitle": "Board Archive",
        "home": "All boards",
        "boards": "Boards",
        "board": "Board",
        "postCount": "Posts",
        "latest": "Latest post",
        "latestPosts": "Latest posts",
        "noPostsYet": "None",
        "emptyBoard": "This board has no posts yet.",
        "notice": "Notice",
        "reply": "Re",
        "new": "N",
        "newLong": "New",
        "anonymous": "Anonymous",
        "number": "No.",
        "title": "Title",
        "writer": "Writer",
        "date": "Date",
        "views": "Views",
        "comments": "Comments",
        "attachments": "Files",
        "attachment": "Has attachments",
        "search": "Search",
        "searchPlaceholder": "Search the archive",
        "pagination": "Pages",
        "firstPage": "First",
        "previousPage": "Previous",
        "nextPage": "Next",
        "lastPage": "Last",
        "firstPageLabel": "Latest posts page",
        "previousPageLabel": "Newer posts page",
        "nextPageLabel": "Older posts page",
        "lastPageLabel": "Oldest posts page",
        "backToList": "Back to the list",
        "previousPost": "Previous post",
        "nextPost": "Next post",
        "parentPost": "Original post",
        "parentMissing": "The original post is not in the archive.",
        "parentRemoved": "The original post was removed from the archive.",
        "removedTitle": "Removed post",
        "removedNotice": "This post was removed from the archive.",
        "removedOn": "Removed on",
        "pseudonymLabel": "Writer",
        "replies": "Replies",
        "postNavigation": "Post navigation",
        "archiveNote": "Offline archive",
        "untitled": "(untitled)",
        "skipToContent": "Skip to content",
        "timeZoneLabel": "Time zone",
        "breadcrumb": "Breadcrumb",
        "noBoards": "No boards have been archived.",
        "feed": "Feed of new posts (Atom)",
        "deletedAtSource": "Deleted at the source; last seen on",
        "deletedRow": "deleted at the source, last seen on {date}",
        "edited": "Edit seen on",
        "earlierVersions": "Earlier versions",
        "versionLabel": "Version {n}",
        "versionSeen": "seen {from} – {to}",
        "versionTitle": "{title} (version {n})",
        "versionNotice": "This is an earlier version of the post, seen at the source",
        "currentVersion": "Current version",
        "changesToNext": "What the next version changed",
        "nextVersion": "Next version",
        "diffRemoved": "removed:",
        "diffAdded": "added:",
        "diffLegend": "[-removed-] {+added+}",
        "bodyUnchanged": "The body did not change.",
        "titleChanged": "Title",
        "leftOutNotice": "This post was deleted at the source; the archive does not publish it.",
        "leftOutOn": "Deletion seen on",
        "boardDeletedAtSource": "This board was deleted at the source; last seen on",
    ]
}
