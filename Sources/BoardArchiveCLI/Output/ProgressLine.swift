import BoardArchive
import Foundation
@preconcurrency import Rainbow

/// One progress report in words: `crawl 3/6 boards, 41 pages, 1234 posts, 12.3 requests/s, 0 retries, 4 s, 33 %, ETA 8 s`
/// (the share done and the ETA counted in posts).
struct ProgressLine {
    var stage: String
    var snapshot: ProgressMeter.Snapshot
    /// Seconds since the stage started.
    var elapsed: Double

    /// The share done, counted in posts (``ProgressMeter/Snapshot/fractionDone``): on an archive where one board holds
    /// most posts, the boards finished say little. A board an incremental crawl finishes early counts whole; boards not
    /// sized yet count as the average sized board. Nil before any board is sized.
    var fraction: Double? {
        snapshot.fractionDone
    }

    /// The share done in whole percent (posts, not boards), once a board is sized.
    var percent: Int? {
        fraction.map { Int(($0 * 100).rounded(.down)) }
    }

    /// Seconds left at the pace so far, once a share is done.
    var secondsLeft: Double? {
        guard let fraction, fraction > 0, fraction < 1, elapsed >= 0.5 else { return nil }
        return elapsed * (1 - fraction) / fraction
    }

    /// The counts that matter for the stage.
    private var fields: [String] {
        let boards = snapshot.boards > 0 ? "\(snapshot.boardsDone)/\(snapshot.boards) boards" : "listing boards"
        if stage == "crawl" {
            let rate = elapsed > 0 ? Double(snapshot.requests) / elapsed : 0
            return [
                boards, "\(snapshot.pages) pages", "\(snapshot.posts) posts", String(format: "%.1f requests/s", rate), "\(snapshot.retries) retries",
            ]
        }
        return [boards, "\(snapshot.posts) posts", "\(snapshot.filesRendered) files rendered", "\(snapshot.filesWritten) written"]
    }

    /// The line, the stage name coloured when `colour`.
    func text(colour: Bool) -> String {
        let name = colour ? stage.applyingColor(.cyan).applyingStyle(.bold) : stage
        var tail = [Self.duration(elapsed)]
        if let percent { tail.append("\(percent) %") }
        if let left = secondsLeft { tail.append("ETA " + Self.duration(left)) }
        let timing = tail.joined(separator: ", ")
        return "\(name) " + fields.joined(separator: ", ") + ", " + (colour ? timing.applyingStyle(.dim) : timing)
    }

    /// The report as one JSON object (keys sorted), for `--json-logs`.
    var json: String {
        var object: [String: Any] = [
            "event": "progress", "stage": stage, "boards": snapshot.boards, "boardsDone": snapshot.boardsDone, "posts": snapshot.posts,
            "elapsedSeconds": (elapsed * 10).rounded() / 10,
        ]
        if stage == "crawl" {
            object.merge(["pages": snapshot.pages, "requests": snapshot.requests, "retries": snapshot.retries]) { $1 }
        } else {
            object.merge(["filesRendered": snapshot.filesRendered, "filesWritten": snapshot.filesWritten]) { $1 }
        }
        if snapshot.boardsSized > 0 { object["postsExpected"] = snapshot.postsExpected }
        if let percent { object["percentDone"] = percent }
        if let left = secondsLeft { object["etaSeconds"] = left.rounded() }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// `42 s`, `3 min 5 s`, `1 h 2 min`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole) s" }
        if whole < 3_600 { return "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3_600) h \((whole % 3_600) / 60) min"
    }
}
