import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

/// One crawl per SQLite store, however the store's path is written.
@Suite("Crawl lease")
struct CrawlLeaseTests {
    @Test func theSameStoreThroughASymlinkOrADotDotPathTakesTheSameLock() throws {
        let folder = try SiteFixture.temporaryDirectory("crawl-lease")
        let store = folder.appendingPathComponent("archive.sqlite").path
        #expect(FileManager.default.createFile(atPath: store, contents: Data()))
        let alias = folder.appendingPathComponent("alias.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: alias, withDestinationPath: store)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let dotted = folder.appendingPathComponent("sub/../archive.sqlite").path
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let lease = try CrawlLease.acquire(forStoreAt: store, at: now)
        for other in [alias, dotted] {
            #expect(CrawlLease.lockPath(forStoreAt: other) == CrawlLease.lockPath(forStoreAt: store))
            do {
                _ = try CrawlLease.acquire(forStoreAt: other, at: now)
                Issue.record("\(other) took a second lease on the same store")
            } catch let error as StoreError {
                guard case .crawlInProgress(let holder) = error.reason else { throw error }
                #expect(holder.contains("boardarchive process \(getpid())"))
            }
        }
        lease.release()
        try CrawlLease.acquire(forStoreAt: alias, at: now).release()
    }
}
