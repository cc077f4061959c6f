import BoardArchive
import Foundation

extension CrawlReport {
    /// The summary as one JSON object (keys sorted), for CI with `--json-logs`: boards by mode, requests, retries,
    /// posts new / changed / gone, the share of posts re-read, the duration, pictures tried, kept, not kept and their
    /// requests, and one entry per board.
    ///
    /// `{"boards": 6, "boardsByMode": {"fallback": 0, "full": 0, "incremental": 6}, "durationSeconds": 0.1, "posts":
    /// {"changed": 0, "gone": 0, "new": 0, "total": 212}, "requests": 7, "retries": 0, "verifiedShare": 0.16, …}`
    var jsonSummary: String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        var byMode: [String: Int] = [:]
        for mode in BoardReadMode.allCases { byMode[mode.rawValue] = boardsByMode[mode] ?? 0 }
        let perBoard: [[String: Any]] = boardSummaries.map { board in
            var entry: [String: Any] = [
                "boardId": board.boardId, "mode": board.mode.rawValue, "reason": board.reason, "requests": board.requests,
                "total": board.total, "new": board.new, "changed": board.changed, "gone": board.gone, "resumedDone": board.resumedDone,
            ]
            if let holder = board.skippedBecause { entry["skippedBecause"] = holder }
            if let part = board.verified { entry["verified"] = ["fromOldest": part.lowerBound, "toOldest": part.upperBound] }
            return entry
        }
        let object: [String: Any] = [
            "event": "crawl summary", "boards": boards, "boardsByMode": byMode, "requests": requests, "retries": retries,
            "posts": ["total": posts, "new": new, "changed": changed, "gone": gone],
            "verifiedShare": (verifiedShare * 1_000).rounded() / 1_000, "durationSeconds": (seconds * 1_000).rounded() / 1_000,
            "resumed": resumed, "perBoard": perBoard, "skippedBoards": skippedBoards,
            "mismatches": mismatches.map { ["boardId": $0.boardId, "expected": $0.expected, "found": $0.found] },
            "pictures": [
                "tried": media.tried, "kept": media.kept, "notKept": media.notKept, "requests": media.requests, "bytes": media.bytes,
                "postsScanned": media.postsScanned,
            ],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
