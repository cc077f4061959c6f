/// The running state of ``MarkdownBudget``'s one pass over a body, fed line by line.
///
/// Every step is constant work per byte, so the scan is linear whatever the body holds. The bounds it keeps are upper
/// bounds: it knows nothing of code spans, code blocks or HTML blocks, so brackets and openers inside them count as
/// though cmark-gfm parsed them as inlines.
struct MarkdownScan {
    /// A `]` that walks the open brackets costs about this many scanned bytes per bracket (measured: the walk over
    /// cmark's bracket stack is about 16 times slower per step than its scan for a terminator).
    static let bracketWeight = 16
    /// An autolink trigger (`www.`, `://`, `@`) may scan its whole word, at about this many scanned bytes per byte.
    static let autolinkWeight = 8
    /// Every `@` costs about this much on its own (measured: some 36 µs per `@` in a long word, whatever follows it).
    static let emailWeight = 1 << 16

    private(set) var measure = MarkdownBudget.Measure()

    /// `[` open in the chunk.
    private var openBrackets = 0
    /// `<?` and `<!` in the chunk, and the sum of their offsets.
    private var scanOpeners = 0
    private var scanOffsets = 0
    /// The columns of the table the chunk is in, or 0.
    private var tableColumns = 0
    /// Whether the previous line of the chunk could be a table's header row.
    private var previousLineHasText = false
    /// The nesting of the previous non-blank line: indentation opens at most one level more than it.
    private var previousNesting = 0

    /// Reads one line (without its line ending) starting at byte `offset` of the body.
    mutating func line(_ line: UnsafeBufferPointer<UInt8>, at offset: Int) {
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else {
            endChunk(at: offset)
            return
        }
        let (nesting, contentStart) = containers(of: line)
        measure.nesting = max(measure.nesting, nesting)
        previousNesting = nesting
        let content = UnsafeBufferPointer(rebasing: line[contentStart...])
        if tableColumns > 0 {
            // A row with fewer cells than the table has columns is rendered padded with empty cells.
            let padding = tableColumns - Self.cellCount(content)
            if padding > 0 { measure.paddedCells = Self.adding(measure.paddedCells, padding) }
        } else if previousLineHasText, let columns = Self.delimiterRowColumns(content) {
            tableColumns = columns
            measure.tableColumns = max(measure.tableColumns, columns)
        }
        previousLineHasText = true
        inlines(line, at: offset)
    }

    /// Ends the chunk at byte `offset`: adds the inline work its openers may cost.
    mutating func endChunk(at offset: Int) {
        // Each `<?` / `<!` may scan to the chunk's end; every bracket left open may meet every other.
        var work = scanOpeners * offset - scanOffsets
        work += openBrackets * openBrackets / 2 * Self.bracketWeight
        measure.inlineWork = Self.adding(measure.inlineWork, work)
        openBrackets = 0
        scanOpeners = 0
        scanOffsets = 0
        tableColumns = 0
        previousLineHasText = false
    }

    /// Counts brackets, HTML openers and autolink triggers; a backslash escapes the next byte.
    private mutating func inlines(_ line: UnsafeBufferPointer<UInt8>, at offset: Int) {
        var index = 0
        var work = 0
        // The current word (a run without whitespace) and the autolink triggers in it.
        var wordStart = 0
        var triggers = 0
        func endWord(at end: Int) {
            work = Self.adding(work, triggers * (end - wordStart) * Self.autolinkWeight)
            triggers = 0
            wordStart = end + 1
        }
        while index < line.count {
            switch line[index] {
            case 0x20, 0x09: endWord(at: index)
            case 0x5C: index += 1  // `\`: the next byte is literal
            case 0x5B: openBrackets += 1  // `[`
            case 0x5D:  // `]` walks what is open before it
                work = Self.adding(work, openBrackets * Self.bracketWeight)
                openBrackets = max(0, openBrackets - 1)
            case 0x3C where index + 1 < line.count && (line[index + 1] == 0x3F || line[index + 1] == 0x21):  // `<?`, `<!`
                scanOpeners += 1
                scanOffsets += offset + index
            case 0x40:  // `@`: an email autolink candidate
                triggers += 1
                work = Self.adding(work, Self.emailWeight)
            case 0x77 where Self.follows(line, index, [0x77, 0x77, 0x77, 0x2E]): triggers += 1  // `www.`
            case 0x3A where Self.follows(line, index, [0x3A, 0x2F, 0x2F]): triggers += 1  // `://`
            default: break
            }
            index += 1
        }
        endWord(at: line.count)
        measure.inlineWork = Self.adding(measure.inlineWork, work)
    }

    /// Whether `pattern` is at `index` of `line`.
    private static func follows(_ line: UnsafeBufferPointer<UInt8>, _ index: Int, _ pattern: [UInt8]) -> Bool {
        guard index + pattern.count <= line.count else { return false }
        for (offset, byte) in pattern.enumerated() where line[index + offset] != byte { return false }
        return true
    }

    /// The block quotes and list items a line opens, and where its content starts.
    ///
    /// Indentation before the first marker nests the line in the previous line's list items, at most one level per two
    /// columns and never deeper than the previous line went (a list item needs its parent on an earlier line). A
    /// thematic break (`- - -`, `* * *`) opens nothing.
    private func containers(of line: UnsafeBufferPointer<UInt8>) -> (nesting: Int, contentStart: Int) {
        var index = 0
        var indent = 0
        while index < line.count, line[index] == 0x20 || line[index] == 0x09 {
            indent += line[index] == 0x09 ? 4 : 1
            index += 1
        }
        if Self.isThematicBreak(line) { return (0, index) }
        var markers = 0
        while index < line.count {
            let byte = line[index]
            if byte == 0x3E {  // `>`
                markers += 1
                index += 1
            } else if let width = Self.listMarkerWidth(line, at: index) {
                markers += 1
                index += width
            } else if byte == 0x20 || byte == 0x09 {
                index += 1
            } else {
                break
            }
        }
        let nested = markers > 0 ? min(indent / 2, previousNesting) : 0
        return (markers + nested, index)
    }

    /// The width of a list marker (`-`, `+`, `*`, or up to nine digits and `.` or `)`) at `index` followed by a space,
    /// a tab or the line's end; nil when there is none.
    private static func listMarkerWidth(_ line: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        var end = index
        let byte = line[index]
        if byte == 0x2D || byte == 0x2B || byte == 0x2A {
            end += 1
        } else {
            while end < line.count, end - index < 9, (0x30...0x39).contains(line[end]) { end += 1 }
            guard end > index, end < line.count, line[end] == 0x2E || line[end] == 0x29 else { return nil }
            end += 1
        }
        guard end == line.count || line[end] == 0x20 || line[end] == 0x09 else { return nil }
        return end - index
    }

    /// Whether the line is three or more of one of `-`, `*`, `_`, spaces between allowed.
    private static func isThematicBreak(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var kind: UInt8?
        var count = 0
        for byte in line where byte != 0x20 && byte != 0x09 {
            guard byte == 0x2D || byte == 0x2A || byte == 0x5F, kind == nil || kind == byte else { return false }
            kind = byte
            count += 1
        }
        return count >= 3
    }

    /// The columns of a GFM table delimiter row (`| --- | :-: |`), or nil when `content` is not one.
    static func delimiterRowColumns(_ content: UnsafeBufferPointer<UInt8>) -> Int? {
        var columns = 0
        var cellHasDash = false
        var pipes = 0
        for byte in content {
            switch byte {
            case 0x7C:  // `|`
                pipes += 1
                if cellHasDash { columns += 1 }
                cellHasDash = false
            case 0x2D: cellHasDash = true
            case 0x3A, 0x20, 0x09: break
            default: return nil
            }
        }
        if cellHasDash { columns += 1 }
        return columns > 0 && (pipes > 0 || columns > 1) ? columns : nil
    }

    /// The cells of a table row: its unescaped pipes plus one, less a leading and a trailing pipe.
    static func cellCount(_ content: UnsafeBufferPointer<UInt8>) -> Int {
        var low = 0
        var high = content.count
        while low < high, content[low] == 0x20 || content[low] == 0x09 { low += 1 }
        while high > low, content[high - 1] == 0x20 || content[high - 1] == 0x09 { high -= 1 }
        guard low < high else { return 1 }
        var pipes = 0
        var trailing = false
        var index = low
        while index < high {
            if content[index] == 0x5C {
                index += 2
                continue
            }
            if content[index] == 0x7C {
                pipes += 1
                trailing = index == high - 1 && index > low
            }
            index += 1
        }
        let leading = content[low] == 0x7C
        return max(1, pipes + 1 - (leading ? 1 : 0) - (trailing ? 1 : 0))
    }

    /// `a + b`, saturating at `Int.max`.
    private static func adding(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}
