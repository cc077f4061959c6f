import Foundation

/// Markdown post bodies for the benchmark archive: paragraphs, headings, lists, task lists, tables, fenced code,
/// quotes, links and emphasis, in Korean with some English, of a log-normal length.
///
/// Lengths are in UTF-8 bytes: e^(ln 470 + 1.1·z) for a standard normal z, so the median body is about 500 bytes
/// (blocks are added until the target is passed), one in a few thousand passes 20 KB, and none passes 150 KB.
enum BenchmarkBody {
    /// The median target length in bytes, before the last block's overshoot.
    static let medianTarget = 470.0
    /// The spread of the length's logarithm.
    static let sigma = 1.1
    /// No body is asked to be longer than this.
    static let maximumTarget = 150_000

    /// A target length drawn from the log-normal distribution.
    static func targetLength(_ random: inout SeededRandom) -> Int {
        // Box–Muller: two uniforms in (0, 1] give one standard normal.
        let u1 = 1 - random.nextUnit()
        let u2 = random.nextUnit()
        let z = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
        let length = exp(log(medianTarget) + sigma * z)
        return min(maximumTarget, max(20, Int(length)))
    }

    /// A body of about `target` bytes; `english` makes most sentences English.
    static func text(target: Int, english: Bool, _ random: inout SeededRandom) -> String {
        let words = BenchmarkVocabulary.shared
        var text = ""
        text.reserveCapacity(target + 200)
        var blocks = 0
        while text.utf8.count < target {
            if blocks > 0 { text += "\n\n" }
            let remaining = target - text.utf8.count
            // Short bodies are a paragraph or two; structure appears once there is room for it.
            let roll = remaining < 150 ? 0 : random.next() % 100
            switch roll {
            case 0..<64: text += paragraph(english: english, words, &random)
            case 64..<70: text += "## " + words.title(english: english, &random)
            case 70..<78: text += list(english: english, words, &random)
            case 78..<82: text += table(english: english, words, &random)
            case 82..<87: text += code(words, &random)
            case 87..<91: text += "> " + sentence(english: english, words, &random)
            case 91..<95: text += taskList(english: english, words, &random)
            default: text += linkLine(english: english, words, &random)
            }
            blocks += 1
        }
        return text
    }

    private static func sentence(english: Bool, _ words: BenchmarkVocabulary, _ random: inout SeededRandom) -> String {
        let mixed = english ? !random.chance(0.1) : random.chance(0.08)
        var sentence = words.sentence(english: mixed, words: 4 + Int(random.next() % 11), &random)
        switch random.next() % 40 {
        case 0: sentence = "**" + sentence + "**"
        case 1: sentence += " `" + words.english.draw(&random) + "`"
        case 2: sentence += " _" + words.english.draw(&random) + "_"
        case 3: sentence += " " + link(words, &random)
        case 4: sentence += " ~~" + words.koreanWord(&random) + "~~"
        default: break
        }
        return sentence
    }

    private static func paragraph(english: Bool, _ words: BenchmarkVocabulary, _ random: inout SeededRandom) -> String {
        // One post in five keeps the line breaks of a plain-text message between its sentences.
        let separator = random.chance(0.2) ? "\n" : " "
        return (0..<(1 + Int(random.next() % 4))).map { _ in sentence(english: english, words, &random) }.joined(separator: separator)
    }

    private static func list(english: Bool, _ words: BenchmarkVocabulary, _ random: inout SeededRandom) -> String {
        let numbered = random.chance(0.35)
        return (1...(2 + Int(random.next() % 5))).map { index in
            (numbered ? "\(index). " : "- ") + words.title(english: english, &random)
        }.joined(separator: "\n")
    }

    private static func taskList(english: Bool, _ words: BenchmarkVocabulary, _ random: inout SeededRandom) -> String {
        (0..<(2 + Int(random.next() % 4))).map { _ in
            (random.chance(0.5) ? "- [x] " : "- [ ] ") + words.title(english: english, &random)
        }.joined(separator: "\n")
    }

    private static func table(english: Bool, _ words: BenchmarkVocabulary, _ random: inout SeededRandom) -> String {
        let columns = 2 + Int(random.next() % 3)
        func cell() -> String {
            switch random.next() % 4 {
            case 0: return String(random.next() % 10_000)
            case 1: return words.english.draw(&random)
            default: return english ? words.english.draw(&random) : words.korean.draw(&random)
            }
        }
        var lines = ["| " + (0..<columns).map { _ in words.korean.draw(&random) }.joined(separator: " | ") + " |"]
        lines.append("|" + String(repeating: "---|", count: columns))
        for _ in 0..<(2 + Int(random.next() % 7)) {
            lines.append("| " + (0..<columns).map { _ in cell() }.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    private static func code(_ words: BenchmarkVocabulary, _ random: inout SeededRandom) -> String {
        let languages = BenchmarkWordLists.codeLanguages
        let lines = BenchmarkWordLists.codeLines
        var block = "```" + languages[Int(random.next() % UInt64(languages.count))]
        for _ in 0..<(1 + Int(random.next() % 8)) {
            let line = lines[Int(random.next() % UInt64(lines.count))]
            block += "\n" + line.replacingOccurrences(of: "WORD", with: words.english.draw(&random).lowercased())
        }
        return block + "\n```"
    }

    private static func link(_ words: BenchmarkVocabulary, _ random: inout SeededRandom) -> String {
        let hosts = BenchmarkWordLists.linkHosts
        let url = "https://" + hosts[Int(random.next() % UInt64(hosts.count))] + "/" + words.english.draw(&random).lowercased()
        return random.chance(0.3) ? "<" + url + ">" : "[" + words.koreanWord(&random) + "](" + url + ")"
    }

    private static func linkLine(english: Bool, _ words: BenchmarkVocabulary, _ random: inout SeededRandom) -> String {
        (english ? "See " : "자세히: ") + link(words, &random) + (random.chance(0.5) ? "" : " " + link(words, &random))
    }
}
