import BoardArchive
import Dispatch
import Foundation

/// Draws a ``ProgressMeter`` on standard error while one stage (crawl or build) runs.
///
/// On a terminal the line is redrawn in place ten times a second; otherwise (CI) a plain line, or a JSON object with
/// `--json-logs`, is written at most once per interval and only when something moved; `--quiet` draws nothing. The
/// library only counts: all drawing happens here.
final class ProgressDisplay: @unchecked Sendable {
    /// How progress reaches the reader.
    enum Style: Equatable {
        /// Redrawn in place on a terminal, coloured unless `NO_COLOR`.
        case live(colour: Bool)
        /// A plain line at most every `interval` seconds.
        case plain(interval: Double)
        /// A JSON object at most every `interval` seconds.
        case json(interval: Double)
        /// Nothing.
        case off
    }

    private let stage: String
    private let meter: ProgressMeter
    private let style: Style
    private let started = Date()
    private let lock = NSLock()
    private var timer: DispatchSourceTimer?
    private var lastDrawn: ProgressMeter.Snapshot?

    /// Starts drawing `meter` for `stage` (`crawl`, `build`) in `style`.
    init(stage: String, meter: ProgressMeter, style: Style) {
        self.stage = stage
        self.meter = meter
        self.style = style
        let interval: Double
        switch style {
        case .live: interval = 0.1
        case .plain(let every), .json(let every): interval = max(0.01, every)
        case .off: return
        }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in self?.draw() }
        self.timer = timer
        timer.resume()
    }

    /// Stops drawing; on a terminal the progress line is cleared so the summary follows on a clean line.
    func finish() {
        lock.withLock {
            timer?.cancel()
            timer = nil
            if case .live = style, lastDrawn != nil { Terminal.writeError(Terminal.clearLine) }
        }
    }

    private func draw() {
        lock.withLock {
            guard timer != nil else { return }
            let now = meter.snapshot
            guard now != lastDrawn else { return }
            lastDrawn = now
            let elapsed = Date().timeIntervalSince(started)
            let line = ProgressLine(stage: stage, snapshot: now, elapsed: elapsed)
            switch style {
            case .live(let colour): Terminal.writeError(Terminal.clearLine + line.text(colour: colour))
            case .plain: Terminal.writeError("progress: " + line.text(colour: false) + "\n")
            case .json: Terminal.writeError(line.json + "\n")
            case .off: break
            }
        }
    }
}
