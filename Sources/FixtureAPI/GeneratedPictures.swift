/// Which generated pictures (`/media/gen/<k>.png`, see ``FixtureMedia/generatedImage(_:)``) a generated post shows.
///
/// A share of the posts show one picture (or two, one time in four); each post decides from a generator seeded by
/// the seed, the stream and its index alone, so any post can be made on its own, in any order. Picture slot `s` of post
/// `i` is normally picture `2i + s`, shown by that post only; about one reference in twenty instead shows the first
/// picture of an earlier post that has one, so an archive has pictures that several posts share. A share of 0 draws
/// nothing and adds nothing.
struct GeneratedPictures: Sendable {
    /// The share of picture references that show an earlier post's picture.
    static let reuseRate = 0.05
    /// The share of posts with pictures that show two.
    static let secondPictureRate = 0.25
    /// A reused picture belongs to one of this many posts before the post (or the nearest one before them that has a
    /// picture of its own).
    static let reuseWindow = 64
    /// How many earlier posts a reuse looks through for one with a picture of its own before it gives up.
    static let reuseSearchLimit = 4_096

    let seed: UInt64
    /// The share (0…1) of posts that show pictures.
    let share: Double
    /// Keeps the choices of different generators apart.
    let stream: String

    /// What one post drew: how many pictures, and for each whether it reuses an earlier picture and which.
    private struct Draw {
        var reuses: [Bool]
        var picks: [UInt64]
    }

    /// The picture numbers post `index` shows, in order; empty for most posts and for every post when the share is 0.
    func pictures(forPost index: Int) -> [Int] {
        guard let draw = draw(index) else { return [] }
        return zip(draw.reuses, draw.picks).enumerated().map { slot, choice in
            if choice.0, let earlier = earlierPicture(before: index, pick: choice.1) {
                return earlier
            }
            return 2 * index + slot
        }
    }

    /// `contents` with the Markdown images of `pictures` appended (`![사진 1](/media/gen/<k>.png)`), one paragraph each.
    static func appending(_ pictures: [Int], to contents: String) -> String {
        guard !pictures.isEmpty else { return contents }
        let images = pictures.enumerated().map { "![사진 \($0.offset + 1)](/media/gen/\($0.element).png)" }
        return (contents.isEmpty ? "" : contents + "\n\n") + images.joined(separator: "\n\n")
    }

    private func draw(_ index: Int) -> Draw? {
        guard share > 0, index >= 0 else { return nil }
        var random = SeededRandom(seed: seed, key: stream + "-pictures", index: index)
        guard random.chance(share) else { return nil }
        let count = random.chance(Self.secondPictureRate) ? 2 : 1
        var draw = Draw(reuses: [], picks: [])
        for _ in 0..<count {
            draw.reuses.append(random.chance(Self.reuseRate))
            draw.picks.append(random.next())
        }
        return draw
    }

    /// The first picture of a post before `index` whose first picture is its own, near a position drawn from `pick`.
    private func earlierPicture(before index: Int, pick: UInt64) -> Int? {
        guard index > 0 else { return nil }
        var candidate = index - 1 - Int(pick % UInt64(min(index, Self.reuseWindow)))
        let last = max(0, candidate - Self.reuseSearchLimit)
        while candidate >= last {
            if let earlier = draw(candidate), earlier.reuses.first == false {
                return 2 * candidate
            }
            candidate -= 1
        }
        return nil
    }
}
