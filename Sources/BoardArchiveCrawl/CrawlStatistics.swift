import BoardArchiveModel

/// Counters shared by every request of a crawl.
actor CrawlStatistics {
    private(set) var requests = 0
    private(set) var retries = 0
    private(set) var throttled = 0
    /// The caller's progress display, told of every request and retry.
    let meter: ProgressMeter

    init(meter: ProgressMeter = ProgressMeter()) { self.meter = meter }

    func countRequest() {
        requests += 1
        meter.update { $0.requests += 1 }
    }
    func countRetry(throttled isThrottled: Bool) {
        retries += 1
        meter.update { $0.retries += 1 }
        if isThrottled { throttled += 1 }
    }
}
