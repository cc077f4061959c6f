import Foundation

/// The rule for board and post ids: whole numbers from −(2^53 − 1) to 2^53 − 1.
///
/// The site's search runs in the browser, where the index's ids are JavaScript numbers: above 2^53 − 1
/// (`Number.MAX_SAFE_INTEGER`) two ids share one number, so a result would link to another post's page and the board
/// filter would find nothing. The crawl refuses such an id with an error naming the post and the field (exit 65)
/// instead of archiving a post the site cannot show correctly.
public enum ArchiveID {
    /// 2^53 − 1, the largest id kept.
    public static let maximum = 9_007_199_254_740_991

    /// Whether `id` is within the rule.
    public static func isValid(_ id: Int) -> Bool {
        id >= -maximum && id <= maximum
    }
}

/// An API item whose ids must follow the ``ArchiveID`` rule.
package protocol ArchiveIdentified {
    /// Every id of the item with its field name, e.g. `("postId", 17)`.
    var archiveIDs: [(field: String, id: Int)] { get }
}

extension Post: ArchiveIdentified {
    package var archiveIDs: [(field: String, id: Int)] {
        [("postId", postId), ("boardId", boardId)] + (parentPostId.map { [("parentPostId", $0)] } ?? [])
    }
}

extension Board: ArchiveIdentified {
    package var archiveIDs: [(field: String, id: Int)] { [("boardId", boardId)] }
}
