/// The interface strings of the search page and the keyword pages: part of ``SiteStrings`` (one table per language,
/// `{{s.key}}` in every template), kept in one file (the search target labels: ``SiteStrings/label(of:)`` in the search target).
///
/// Messages with `{query}`, `{target}`, `{count}` or `{keyword}` are filled in by `search.js` or the keyword pages.
extension SiteStrings {
    static let koreanSearch: [String: String] = [
        "target-all": "전체", "target-title": "제목", "target-contents": "내용", "target-writer": "작성자",
        "targetLabel": "검색 대상", "boardLabel": "게시판", "allBoards": "모든 게시판",
        "prompt": "검색어를 입력하세요. 제목, 내용, 작성자에서 찾습니다.",
        "noResults": "‘{query}’에 대한 {target} 검색 결과가 없습니다.",
        "count": "‘{query}’ {target} 검색 결과 {count}건",
        "countMore": "‘{query}’ {target} 검색 결과 {count}건 이상",
        "paused": "‘{query}’ {target} 검색 결과 지금까지 {count}건: 글 {total}개 중 {searched}개를 찾아봤습니다.",
        "pausedNone": "‘{query}’ {target} 검색: 글 {total}개 중 {searched}개에서는 찾지 못했습니다. 이전 글을 계속 검색할 수 있습니다.",
        "continue": "이전 글 계속 검색",
        "searching": "검색 중…", "indexError": "검색 색인을 불러오지 못했습니다. 사이트를 다시 빌드하세요.",
        "keywordPage": "‘{keyword}’ 키워드 페이지 ({count}건)",
        "recent": "최근 검색어", "noRecent": "최근 검색어가 없습니다.", "clearRecent": "전체 삭제", "remove": "‘{query}’ 삭제",
        "more": "더 보기", "noScript": "검색에는 JavaScript가 필요합니다. 키워드 페이지는 JavaScript 없이 볼 수 있습니다.",
        "keywords": "키워드", "keywordsTitle": "키워드 모음", "keywordCount": "{count}건",
        "keywordTitle": "키워드: {keyword}", "keywordEmpty": "이 키워드가 들어 있는 글이 없습니다.",
        "keywordSearch": "검색 페이지에서 보기", "noKeywords": "키워드 페이지가 없습니다.",
    ]

    static let englishSearch: [String: String] = [
        "target-all": "All", "target-title": "Title", "target-contents": "Contents", "target-writer": "Writer",
        "targetLabel": "Search in", "boardLabel": "Board", "allBoards": "All boards",
        "prompt": "Type a search. Titles, contents and writers are searched.",
        "noResults": "No results for “{query}” in {target}.",
        "count": "{count} results for “{query}” in {target}",
        "countMore": "{count}+ results for “{query}” in {target}",
        "paused": "{count} results for “{query}” in {target} so far: {searched} of {total} posts searched.",
        "pausedNone": "No results for “{query}” in {target} in {searched} of {total} posts searched; older posts can still be searched.",
        "continue": "Search older posts",
        "searching": "Searching…", "indexError": "The search index could not be loaded. Rebuild the site.",
        "keywordPage": "Keyword page “{keyword}” ({count} posts)",
        "recent": "Recent searches", "noRecent": "No recent searches.", "clearRecent": "Clear all", "remove": "Remove “{query}”",
        "more": "More", "noScript": "Search needs JavaScript. The keyword pages work without it.",
        "keywords": "Keywords", "keywordsTitle": "Keywords", "keywordCount": "{count} posts",
        "keywordTitle": "Keyword: {keyword}", "keywordEmpty": "No post contains this keyword.",
        "keywordSearch": "Open in search", "noKeywords": "There are no keyword pages.",
    ]
}
