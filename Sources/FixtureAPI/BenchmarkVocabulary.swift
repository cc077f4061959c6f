/// The benchmark archive's words: a Korean and an English vocabulary, each Zipf-distributed, and a writer pool.
///
/// The Korean vocabulary is ``BenchmarkWordLists/koreanNouns`` followed by compounds of two of them (서울시청-like
/// words, e.g. 회의자료), several thousand words in all; a Korean noun sometimes takes a particle chosen by its last
/// syllable (서울은, 학교에, 회의를). Word `k` (from 0) is drawn with probability ∝ 1 / (k + 2.7), a Zipf–Mandelbrot law,
/// so a few words are very common and most are rare, as in real text. The vocabulary is fixed: it does not depend on
/// the archive's seed.
struct BenchmarkVocabulary: Sendable {
    /// A ranked word list with its cumulative Zipf weights, for drawing by binary search.
    struct Ranked: Sendable {
        let words: [String]
        private let cumulative: [Double]

        /// Ranks `words` in order (dropping repeats); word `k` gets the weight 1 / (k + `shift`).
        init(_ words: [String], shift: Double = 2.7) {
            var seen = Set<String>()
            self.words = words.filter { seen.insert($0).inserted }
            var total = 0.0
            cumulative = self.words.indices.map { rank in
                total += 1 / (Double(rank) + shift)
                return total
            }
        }

        /// The rank of a word drawn from the distribution.
        func drawRank(_ random: inout SeededRandom) -> Int {
            guard let total = cumulative.last else { return 0 }
            let target = random.nextUnit() * total
            var low = 0
            var high = cumulative.count - 1
            while low < high {
                let middle = (low + high) / 2
                if cumulative[middle] < target { low = middle + 1 } else { high = middle }
            }
            return low
        }

        /// A word drawn from the distribution.
        func draw(_ random: inout SeededRandom) -> String {
            words.isEmpty ? "" : words[drawRank(&random)]
        }
    }

    let korean: Ranked
    let english: Ranked
    /// Writers, most prolific first (김민준 leads, so the search benchmark's writer query has hits).
    let writers: Ranked
    /// The number of distinct Korean plus English words.
    var wordCount: Int { korean.words.count + english.words.count }

    /// The one shared vocabulary (it is fixed, so it is built once).
    static let shared = BenchmarkVocabulary()

    private init() {
        let nouns = BenchmarkWordLists.koreanNouns
        var compounds: [String] = []
        // A fixed walk over pairs of the first 160 nouns: 3,000 compounds, the same on every machine.
        var pairs = SeededRandom(seed: 0x5EED_B0A7_D0C5)
        let head = min(160, nouns.count)
        while compounds.count < 3_000, head > 1 {
            let first = nouns[Int(pairs.next() % UInt64(head))]
            let second = nouns[Int(pairs.next() % UInt64(head))]
            if first != second, first.count + second.count <= 6 { compounds.append(first + second) }
        }
        korean = Ranked(nouns + compounds)
        english = Ranked(BenchmarkWordLists.englishWords)
        var names: [String] = []
        for given in BenchmarkWordLists.givenNames {
            for surname in BenchmarkWordLists.surnames where surname + given != "김민준" { names.append(surname + given) }
        }
        // A fixed shuffle, so the frequent writers have different surnames and given names.
        var shuffle = SeededRandom(seed: 0x57_1AE5)
        for index in stride(from: names.count - 1, to: 0, by: -1) {
            names.swapAt(index, Int(shuffle.next() % UInt64(index + 1)))
        }
        names.insert("김민준", at: 0)
        let english = BenchmarkWordLists.englishNames
        // Interleave English names among the Korean ones, one in 40.
        var pool: [String] = []
        for (index, name) in names.enumerated() {
            pool.append(name)
            if index % 40 == 39 { pool.append(english[(index / 40) % english.count]) }
        }
        writers = Ranked(pool, shift: 8)
    }

    /// A Korean noun, with a particle one time in three (은/는, 이/가, 을/를, 에, 에서, 의, 으로/로, 와/과, 도), chosen
    /// by whether its last syllable ends in a consonant.
    func koreanWord(_ random: inout SeededRandom) -> String {
        let noun = korean.draw(&random)
        guard random.chance(0.33) else { return noun }
        let closed = Self.endsInConsonant(noun)
        switch random.next() % 10 {
        case 0, 1: return noun + (closed ? "은" : "는")
        case 2: return noun + (closed ? "이" : "가")
        case 3: return noun + (closed ? "을" : "를")
        case 4, 5: return noun + "에"
        case 6: return noun + "에서"
        case 7: return noun + "의"
        case 8: return noun + (closed ? "으로" : "로")
        default: return noun + (random.chance(0.5) ? (closed ? "과" : "와") : "도")
        }
    }

    /// Whether a word's last Hangul syllable has a final consonant (받침), which picks 은 over 는.
    static func endsInConsonant(_ word: String) -> Bool {
        guard let last = word.unicodeScalars.last, (0xAC00...0xD7A3).contains(last.value) else { return false }
        return (last.value - 0xAC00) % 28 != 0
    }

    /// A sentence: Korean (nouns, particles, adverbs and a predicate) or, with `english`, English words.
    func sentence(english isEnglish: Bool, words count: Int, _ random: inout SeededRandom) -> String {
        var text = ""
        if isEnglish {
            for index in 0..<count {
                if index > 0 { text += " " }
                let word = english.draw(&random)
                text += index == 0 ? word.prefix(1).uppercased() + word.dropFirst() : word
            }
            return text + (random.chance(0.15) ? "?" : ".")
        }
        for index in 0..<count {
            if index > 0 { text += " " }
            if random.chance(0.12) {
                text += english.draw(&random)
            } else if random.chance(0.1) {
                text += BenchmarkWordLists.koreanAdverbs[Int(random.next() % UInt64(BenchmarkWordLists.koreanAdverbs.count))]
            } else {
                text += koreanWord(&random)
            }
        }
        let endings = BenchmarkWordLists.koreanEndings
        return text + " " + endings[Int(random.next() % UInt64(endings.count))]
    }

    /// A title of 2 to 7 words, without a final full stop.
    func title(english isEnglish: Bool, _ random: inout SeededRandom) -> String {
        let count = 2 + Int(random.next() % 6)
        var words: [String] = []
        for _ in 0..<count {
            words.append(isEnglish || random.chance(0.1) ? english.draw(&random) : koreanWord(&random))
        }
        let prefixes = ["[질문] ", "[공유] ", "[후기] ", "[요청] ", "[안내] "]
        let prefix = random.chance(0.12) ? prefixes[Int(random.next() % UInt64(prefixes.count))] : ""
        return prefix + words.joined(separator: " ")
    }
}
