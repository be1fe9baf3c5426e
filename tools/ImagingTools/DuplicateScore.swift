import Foundation

/// Precision and recall of `wardrobe duplicates --json` on a set `DuplicateSet` wrote (after
/// `wardrobe import` of its folder): every pair of images inside a printed group is a
/// duplicate found; it is right when both files come from one source photo. Recall is over
/// every pair of files from one source.
struct DuplicateScore {
    var set: String
    var groups: String

    func report() throws {
        var sourceOf: [String: String] = [:]
        for line in try String(contentsOfFile: "\(set)/sources.tsv", encoding: .utf8).split(separator: "\n")
        where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t").map(String.init)
            sourceOf[fields[0]] = fields[1]
        }
        var filesPerSource: [String: Int] = [:]
        for source in sourceOf.values { filesPerSource[source, default: 0] += 1 }
        let truePairs = filesPerSource.values.reduce(0) { $0 + $1 * ($1 - 1) / 2 }

        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: groups)))
        guard let top = object as? [String: Any], let printed = top["groups"] as? [[String: Any]] else {
            throw ScoreError("\(groups): not the JSON of 'wardrobe duplicates --json'")
        }
        var found = 0, right = 0, largest = 0
        for group in printed {
            let images = (group["images"] as? [[String: Any]]) ?? []
            let sources = images.map { image -> String? in
                guard let path = image["path"] as? String else { return nil }
                return sourceOf[URL(fileURLWithPath: path).lastPathComponent]
            }
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
    }

    struct ScoreError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
