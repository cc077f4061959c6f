import BoardArchive
import Foundation
import Testing

@testable import BoardArchiveCrawl
@testable import BoardArchiveModel
@testable import BoardArchiveRender
@testable import BoardArchiveSearch
@testable import BoardArchiveSite
@testable import BoardArchiveStore

@Suite("Time: today in the archive's time zone")
struct TimeTests {
    static let seoul = SiteFixture.seoul

    @Test(
        "posts around midnight in Seoul while UTC is on the other day",
        arguments: [
            // now = 2024-05-15 00:01 Seoul (2024-05-14 15:01 UTC)
            ("2024-05-14T15:01:00Z", "2024-05-14T14:59:00Z", false),  // 23:59 Seoul yesterday, same UTC day as now
            ("2024-05-14T15:01:00Z", "2024-05-14T15:00:30Z", true),  // 00:00:30 Seoul today
            // now = 2024-05-15 23:59 Seoul (2024-05-15 14:59 UTC)
            ("2024-05-15T14:59:00Z", "2024-05-14T15:01:00Z", true),  // 00:01 Seoul today, previous UTC day
            ("2024-05-15T14:59:00Z", "2024-05-14T14:59:00Z", false),  // 23:59 Seoul yesterday
            ("2024-05-15T14:59:00Z", "2024-05-15T15:01:00Z", false),  // 00:01 Seoul tomorrow, same UTC day as now
        ])
    func newAroundMidnight(now: String, created: String, isNew: Bool) {
        let clock = ArchiveClock(now: SiteFixture.date(now), timeZone: Self.seoul)
        #expect(clock.isToday(SiteFixture.date(created)) == isNew)
    }

    @Test("the same instants read in UTC give the opposite answers, so the zone really decides")
    func utcDiffers() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        let clock = ArchiveClock(now: SiteFixture.date("2024-05-14T15:01:00Z"), timeZone: utc)
        #expect(clock.isToday(SiteFixture.date("2024-05-14T14:59:00Z")))
        let late = ArchiveClock(now: SiteFixture.date("2024-05-15T14:59:00Z"), timeZone: utc)
        #expect(!late.isToday(SiteFixture.date("2024-05-14T15:01:00Z")))
    }

    @Test("labels: HH:mm for today, yy-MM-dd otherwise, full timestamp in local time")
    func labels() {
        let clock = ArchiveClock(now: SiteFixture.date("2024-05-15T14:59:00Z"), timeZone: Self.seoul)
        #expect(clock.shortLabel(for: SiteFixture.date("2024-05-14T15:01:00Z")) == "00:01")
        #expect(clock.shortLabel(for: SiteFixture.date("2024-05-14T14:59:00Z")) == "24-05-14")
        #expect(clock.fullLabel(for: SiteFixture.date("2024-05-14T14:59:07Z")) == "2024-05-14 23:59:07")
        #expect(clock.machineTimestamp(for: SiteFixture.date("2024-05-14T14:59:07Z")) == "2024-05-14T14:59:07Z")
        #expect(clock.offsetMinutes == 540)
    }

    @Test("labels and timestamps from 1600 to 9999 equal the calendar's fields zero-padded, and a year past 9999 is written whole")
    func labelsOverTheYears() throws {
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        var calendar = Calendar(identifier: .gregorian)
        for zone in [Self.seoul, newYork] {
            calendar.timeZone = zone
            let clock = ArchiveClock(now: SiteFixture.date("2024-07-01T12:00:00Z"), timeZone: zone)
            // From 1600: Foundation's Gregorian calendar is Julian before 1582, the archive's dates proleptic Gregorian.
            var seconds = -11_600_000_000
            while seconds < 253_400_000_000 {  // year 9999
                let date = Date(timeIntervalSince1970: TimeInterval(seconds))
                let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
                let (year, month, day) = (parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
                let (hour, minute, second) = (parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
                let dayText = String(format: "%04d-%02d-%02d", year, month, day)
                #expect(clock.dayLabel(for: date) == dayText)
                #expect(clock.fullLabel(for: date) == dayText + String(format: " %02d:%02d:%02d", hour, minute, second))
                #expect(clock.shortLabel(for: date) == String(format: "%02d-%02d-%02d", year % 100, month, day))
                #expect(ArchiveDate.parse(clock.machineTimestamp(for: date)) == date)
                seconds += 77_777_777 + seconds % 86_399
            }
            let today = SiteFixture.date("2024-07-01T11:04:05Z")
            let local = calendar.dateComponents([.hour, .minute], from: today)
            #expect(clock.shortLabel(for: today) == String(format: "%02d:%02d", local.hour ?? 0, local.minute ?? 0))
        }
        #expect(ArchiveDate.format(Date(timeIntervalSince1970: 253_402_300_800)) == "10000-01-01T00:00:00Z")
    }

    @Test("a zone with daylight saving uses the offset of each instant")
    func daylightSaving() throws {
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        let clock = ArchiveClock(now: SiteFixture.date("2024-07-01T12:00:00Z"), timeZone: newYork)
        #expect(clock.fullLabel(for: SiteFixture.date("2024-07-01T03:30:00Z")) == "2024-06-30 23:30:00")  // EDT, UTC-4
        #expect(clock.fullLabel(for: SiteFixture.date("2024-01-01T04:30:00Z")) == "2023-12-31 23:30:00")  // EST, UTC-5
        #expect(!clock.isToday(SiteFixture.date("2024-07-01T03:30:00Z")))
        #expect(clock.isToday(SiteFixture.date("2024-07-01T04:30:00Z")))
    }

    @Test("the build marks exactly the posts of the Seoul day as new in the rendered rows")
    func renderedBadges() async throws {
        let now = SiteFixture.date("2024-05-15T14:59:00Z")  // 23:59 Seoul
        let posts = [
            SiteFixture.post(1, at: "2024-05-14T15:01:00Z"),  // 00:01 Seoul today (UTC: yesterday)
            SiteFixture.post(2, at: "2024-05-14T14:59:00Z"),  // 23:59 Seoul yesterday
        ]
        let store = try SiteFixture.store(boards: [Board(boardId: 1, displayName: "B", orderNo: 1)], posts: posts)
        let output = try SiteFixture.temporaryDirectory().appendingPathComponent("site")
        try await SiteFixture.build(store, into: output, now: now)
        let html = try SiteFixture.text("boards/1/index.html", in: output)
        let rows = html.components(separatedBy: "<tr class=\"post-row").dropFirst()
        let row1 = try #require(rows.first { $0.contains("data-post-id=\"1\"") })
        let row2 = try #require(rows.first { $0.contains("data-post-id=\"2\"") })
        #expect(row1.contains("class=\"new-badge\""))
        #expect(row1.contains(">00:01</time>"))
        #expect(!row2.contains("new-badge"))
        #expect(row2.contains(">24-05-14</time>"))
        let home = try SiteFixture.text("index.html", in: output)
        #expect(home.contains("class=\"new-badge\""))
    }

    @Test("isToday's second range equals converting every date, in zones with daylight saving at and around midnight")
    func todayRangeMatchesConversion() throws {
        let zones = ["Asia/Seoul", "UTC", "America/New_York", "America/Santiago", "America/Havana", "Australia/Lord_Howe", "Asia/Gaza"]
        var seed: UInt64 = 3
        for name in zones {
            let zone = try #require(TimeZone(identifier: name))
            for _ in 0..<60 {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                // Instants over 2020–2027, many of them within days of a transition.
                let now = Date(timeIntervalSince1970: 1_577_836_800 + TimeInterval((seed >> 33) % 252_460_800))
                let clock = ArchiveClock(now: now, timeZone: zone)
                let today = clock.localTime(of: now).dayNumber
                for offset in stride(from: -180_000, through: 180_000, by: 1_800) {
                    let date = now.addingTimeInterval(TimeInterval(offset))
                    #expect(clock.isToday(date) == (clock.localTime(of: date).dayNumber == today), "\(name) now \(now) date \(date)")
                }
            }
        }
    }

    @Test(
        "isToday on days whose midnight moves: every minute of the day before, the day and the day after",
        arguments: [
            ("America/Santiago", "2022-09-11T16:00:00Z"), ("America/Havana", "2023-03-12T17:00:00Z"),
            ("America/New_York", "2023-11-05T17:00:00Z"), ("Australia/Lord_Howe", "2023-04-02T02:00:00Z"),
            ("Asia/Gaza", "2023-04-29T10:00:00Z"),
        ])
    func todayOnTransitionDays(zoneName: String, now: String) throws {
        let zone = try #require(TimeZone(identifier: zoneName))
        let clock = ArchiveClock(now: SiteFixture.date(now), timeZone: zone)
        let today = clock.localTime(of: clock.now).dayNumber
        for minute in stride(from: -2_160, through: 2_160, by: 1) {
            let date = clock.now.addingTimeInterval(TimeInterval(minute * 60))
            #expect(clock.isToday(date) == (clock.localTime(of: date).dayNumber == today), "\(zoneName) \(date)")
        }
    }
}
