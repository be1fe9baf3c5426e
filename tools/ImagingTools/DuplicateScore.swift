import Foundation

/// Precision and recall of `wardrobe duplicates --json` on a set `DuplicateSet` wrote (after
/// `wardrobe import` of its folder): every pair of images inside a printed group is a
/// duplicate found; it is right when both files come from one source photo. Recall is over
/// every pair of files from one source.
struct DuplicateScore {
    var set: String
    var groups: String

    func report() throws {
        var sourceOf: [String: String] = [:], editOf: [String: String] = [:]
        for line in try String(contentsOfFile: "\(set)/sources.tsv", encoding: .utf8).split(separator: "\n")
        where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t").map(String.init)
            sourceOf[fields[0]] = fields[1]
            editOf[fields[0]] = fields[2].split(separator: " ").first.map(String.init)
        }
        var filesPerSource: [String: Int] = [:]
        for source in sourceOf.values { filesPerSource[source, default: 0] += 1 }
        let truePairs = filesPerSource.values.reduce(0) { $0 + $1 * ($1 - 1) / 2 }

        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: groups)))
        guard let top = object as? [String: Any], let printed = top["groups"] as? [[String: Any]] else {
            throw ScoreError("\(groups): not the JSON of 'wardrobe duplicates --json'")
        }
        var found = 0, right = 0, largest = 0
        // Each file's group, by name: which edits keep a file in its original's group.
        var groupOf: [String: Int] = [:]
        for (number, group) in printed.enumerated() {
            let images = (group["images"] as? [[String: Any]]) ?? []
            let names = images.map { ($0["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } }
            for case let name? in names { groupOf[name] = number }
            let sources = names.map { $0.flatMap { sourceOf[$0] } }
            largest = max(largest, images.count)
            for i in 0..<sources.count {
                for j in (i + 1)..<sources.count {
                    found += 1
                    if let a = sources[i], a == sources[j] { right += 1 }
                }
            }
        }
        let precision = found == 0 ? 1 : Double(right) / Double(found)
        let recall = truePairs == 0 ? 0 : Double(right) / Double(truePairs)
        print("groups \(printed.count) (largest \(largest)), pairs in groups \(found), of them true \(right), true pairs \(truePairs)")
        print(String(format: "precision %.4f  recall %.4f", precision, recall))
        // Per edit: the files in the same group as the original of their photo.
        var originals: [String: String] = [:]
        for (name, edit) in editOf where edit == "original" { originals[sourceOf[name]!] = name }
        var joined: [String: (Int, Int)] = [:]
        for (name, edit) in editOf where edit != "original" {
            let original = originals[sourceOf[name]!]
            let together = groupOf[name] != nil && groupOf[name] == original.flatMap { groupOf[$0] }
            joined[edit, default: (0, 0)].0 += together ? 1 : 0
            joined[edit, default: (0, 0)].1 += 1
        }
        print("with their original, by edit: " + joined.keys.sorted().map { edit in
            let (together, all) = joined[edit]!
            return String(format: "%@ %d of %d (%.3f)", edit, together, all, Double(together) / Double(all))
        }.joined(separator: "; "))
    }

    struct ScoreError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
