import Files

/// "Did you mean": the known name nearest to a mistyped one, by edit
/// distance (insertions, deletions, substitutions and swaps of neighbours,
/// ignoring case), close enough to be a typo: at most one edit in a short
/// name, two in a longer one, a third of the name at most.
public enum Suggestion {
    /// The nearest of `names` to `word`, or nil when none is close.
    public static func nearest(to word: String, among names: [String]) -> String? {
        let typed = Array(word.lowercased())
        var best: (name: String, distance: Int)?
        for name in names {
            let distance = editDistance(typed, Array(name.lowercased()))
            if distance < (best?.distance ?? Int.max) { best = (name, distance) }
        }
        guard let best, best.distance > 0 || word != best.name else { return nil }
        let allowed = typed.count <= 4 ? 1 : min(2, max(1, typed.count / 3))
        return best.distance <= allowed ? best.name : nil
    }

    /// `message`, with "; did you mean 'x'?" when a name is close, naming each character of
    /// `word` that is not ASCII where the name is: "unknown --format 'jsоn'; did you mean
    /// 'json'?" showed two words that look the same (its о a Cyrillic one), as if the tool
    /// refused the word it asked for.
    public static func appending(to message: String, for word: String, among names: [String]) -> String {
        guard let name = nearest(to: word, among: names) else { return message }
        let foreign = name.unicodeScalars.allSatisfy(\.isASCII) ? VisibleText.foreignCharacters(in: word) : []
        guard !foreign.isEmpty else { return "\(message); did you mean '\(name)'?" }
        let named = foreign.prefix(3).joined(separator: ", ") + (foreign.count > 3 ? ", ..." : "")
        return "\(message); did you mean '\(name)'? ('\(Format.escaped(word))' holds \(named), which '\(name)' does not)"
    }

    /// Optimal string alignment distance: Levenshtein plus swaps of two neighbours.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
