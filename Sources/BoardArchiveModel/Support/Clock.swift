import Foundation

/// The build's notion of "now" and of calendar days in the archive's time zone.
///
/// "Today" is a calendar day in `timeZone`, never in UTC or in the machine's zone, so a post written at
/// 00:01 in Seoul is today's post there even while UTC is still on the previous day. All arithmetic is
/// integer-based on UTC seconds plus the zone's offset at that instant (daylight saving included), which
/// keeps it deterministic, thread-safe and fast enough for a million rows.
public struct ArchiveClock: Sendable, Equatable {
    /// The injected instant the build treats as the present.
    public let now: Date
    /// The archive's time zone, which decides what "today" and displayed times mean.
    public let timeZone: TimeZone
    /// The UTC seconds of today's local day, from its first second to the next day's; nil when the zone's offset
    /// changes in a way the two-step search below does not settle (every date is then converted on its own).
    private let today: Range<Int>?
    /// The local day of `now`, as ``LocalTime/dayNumber`` counts it.
    private let nowDay: Int

    /// Creates a clock fixed at `now`, reading days and times in `timeZone`.
    public init(now: Date, timeZone: TimeZone) {
        self.now = now
        self.timeZone = timeZone
        self.today = Self.dayRange(containing: now, in: timeZone)
        self.nowDay = Self.localTime(of: now, in: timeZone).dayNumber
    }

    /// The local day of `seconds` (UTC) in `timeZone`, as days since 1970-01-01.
    private static func localDay(_ seconds: Int, in timeZone: TimeZone) -> Int {
        let local = seconds + timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
        return local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    }

    /// The UTC seconds of the local day holding `date`. `isToday` runs for every row of every listing and keyword
    /// page: comparing seconds replaces converting each date with the zone. Each bound is the first second whose
    /// local day is the day (or the next), found from the offset and checked against the second before it.
    private static func dayRange(containing date: Date, in timeZone: TimeZone) -> Range<Int>? {
        let day = localDay(Int(date.timeIntervalSince1970.rounded(.down)), in: timeZone)
        func firstSecond(ofDay day: Int) -> Int? {
            var guess = day * 86_400 - timeZone.secondsFromGMT(for: date)
            guess = day * 86_400 - timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(guess)))
            return localDay(guess, in: timeZone) == day && localDay(guess - 1, in: timeZone) == day - 1 ? guess : nil
        }
        guard let start = firstSecond(ofDay: day), let end = firstSecond(ofDay: day + 1), start < end else { return nil }
        return start..<end
    }

    /// A wall-clock reading of an instant in the archive's time zone.
    package struct LocalTime: Equatable {
        var year: Int
        var month: Int
        var day: Int
        var hour: Int
        var minute: Int
        var second: Int
        /// Days since 1970-01-01 of the local calendar day.
        package var dayNumber: Int
    }

    /// The wall-clock reading of `date` in the archive's time zone.
    package func localTime(of date: Date) -> LocalTime {
        Self.localTime(of: date, in: timeZone)
    }

    private static func localTime(of date: Date, in timeZone: TimeZone) -> LocalTime {
        let utcSeconds = Int(date.timeIntervalSince1970.rounded(.down))
        let seconds = utcSeconds + timeZone.secondsFromGMT(for: date)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        let civil = ArchiveDate.civilFromDays(days)
        return LocalTime(
            year: civil.year, month: civil.month, day: civil.day, hour: rest / 3_600, minute: rest % 3_600 / 60, second: rest % 60,
            dayNumber: days)
    }

    /// Whether `date` falls on the same calendar day as `now` in the archive's time zone.
    public func isToday(_ date: Date) -> Bool {
        if let today { return today.contains(Int(date.timeIntervalSince1970.rounded(.down))) }
        return localTime(of: date).dayNumber == nowDay
    }

    /// The list label of a date: `HH:mm` for today, `yy-MM-dd` for any other day.
    public func shortLabel(for date: Date) -> String {
        let local = localTime(of: date)
        if local.dayNumber == nowDay { return DigitText.make([.init(local.hour, 2, ":"), .init(local.minute)]) }
        return DigitText.make([.init(local.year % 100, 2, "-"), .init(local.month, 2, "-"), .init(local.day)])
    }

    /// The full local timestamp, `yyyy-MM-dd HH:mm:ss`, shown on post pages and in tooltips.
    public func fullLabel(for date: Date) -> String {
        let local = localTime(of: date)
        return DigitText.make([
            .init(local.year, 4, "-"), .init(local.month, 2, "-"), .init(local.day, 2, " "), .init(local.hour, 2, ":"),
            .init(local.minute, 2, ":"), .init(local.second),
        ])
    }

    /// The local calendar day of `date`, `yyyy-MM-dd` (a tombstone's date of removal).
    public func dayLabel(for date: Date) -> String {
        let local = localTime(of: date)
        return DigitText.make([.init(local.year, 4, "-"), .init(local.month, 2, "-"), .init(local.day)])
    }

    /// The machine-readable timestamp for `<time datetime>`: the API's UTC form, `yyyy-MM-dd'T'HH:mm:ss'Z'`.
    public func machineTimestamp(for date: Date) -> String {
        ArchiveDate.format(date)
    }

    /// The zone's offset from UTC at `now`, in minutes; the page script's fallback when `Intl` lacks the zone.
    public var offsetMinutes: Int {
        timeZone.secondsFromGMT(for: now) / 60
    }
}
