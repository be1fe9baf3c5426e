import BenchSupport
import Foundation

/// The `similar` hit rate on a set `DuplicateSet` wrote (after `wardrobe import` of its
/// folder): each file in turn is the query of `wardrobe similar PATH --limit 1 --json`, run as
/// a person runs it, and a hit is a first neighbour made from the same source photo. Prints
/// the share of hits, by the query's edit, and the median wall time of one process.
struct SimilarScore {
    var set: String
    var db: String
    var wardrobe: String

    func report() throws {
        var sourceOf: [String: String] = [:]
        var editOf: [String: String] = [:]
        for line in try String(contentsOfFile: "\(set)/sources.tsv", encoding: .utf8).split(separator: "\n")
        where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t").map(String.init)
            sourceOf[fields[0]] = fields[1]
            editOf[fields[0]] = String(fields[0].split(separator: "-").last?.split(separator: ".").first ?? "")
        }
        var hits: [String: (hits: Int, queries: Int)] = [:]
        var seconds: [Double] = []
        var misses: [String] = []
        for file in sourceOf.keys.sorted() {
            let run = try runChild(wardrobe, ["similar", "--db", db, "--limit", "1", "--json", "\(set)/photos/\(file)"],
                                   captureStdout: true)
            guard run.status == 0 else { throw ScoreError("wardrobe similar \(file) failed") }
            seconds.append(run.seconds)
            let object = try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any]
            let first = (object?["neighbours"] as? [[String: Any]])?.first
            let found = (first?["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent }
            let hit = found.flatMap { sourceOf[$0] } == sourceOf[file]
            let edit = editOf[file] ?? "?"
            hits[edit, default: (0, 0)].hits += hit ? 1 : 0
            hits[edit, default: (0, 0)].queries += 1
            if !hit { misses.append("\(file) -> \(found ?? "nothing")") }
        }
        let total = hits.values.reduce((0, 0)) { ($0.0 + $1.hits, $0.1 + $1.queries) }
        for (edit, count) in hits.sorted(by: { $0.key < $1.key }) {
            let name = edit.padding(toLength: 13, withPad: " ", startingAt: 0)
            print(String(format: "  %@ %5d of %5d  %.4f", name, count.hits, count.queries, Double(count.hits) / Double(count.queries)))
        }
        print(String(format: "first is a copy of the query: %d of %d queries, %.4f", total.0, total.1, Double(total.0) / Double(total.1)))
        print(String(format: "median wall time of one 'wardrobe similar': %.1f ms", seconds.sorted()[seconds.count / 2] * 1000))
        for miss in misses.prefix(20) { print("  missed: \(miss)") }
    }

    struct ScoreError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
