import BoardArchiveModel

/// Which text of a post a query searches: the choices 전체 / 제목 / 내용 / 작성자 of the search page.
public enum SearchTarget: String, Sendable, CaseIterable, Hashable {
    /// Every query word must occur in the title, the contents or the writer name (each word in any of them).
    case all
    case title
    case contents
    /// The writer name as shown on the row (익명 for anonymous posts).
    case writer

    /// The fields this target searches, in the order they are checked.
    var fields: [SearchField] {
        switch self {
        case .all: return [.title, .writer, .contents]
        case .title: return [.title]
        case .contents: return [.contents]
        case .writer: return [.writer]
        }
    }
}

/// One searchable text of a post; the raw value is the slot of its posting list in a posting entry.
package enum SearchField: Int, Sendable, CaseIterable {
    case title = 0
    case contents = 1
    case writer = 2

    /// The field's text in `document`.
    package func text(of document: SearchDocument) -> String {
        switch self {
        case .title: return document.title
        case .contents: return document.contents
        case .writer: return document.writer
        }
    }
}

extension SiteStrings {
    /// The label of a search target as the target menu shows it.
    package func label(of target: SearchTarget) -> String { self["target-" + target.rawValue] }
}
