/// Counters shared by every request of a crawl.
actor CrawlStatistics {
    private(set) var requests = 0
    private(set) var retries = 0
    private(set) var throttled = 0

    func countRequest() { requests += 1 }
    func countRetry(throttled isThrottled: Bool) {
        retries += 1
        if isThrottled { throttled += 1 }
    }
}
